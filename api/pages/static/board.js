// A board picture in the page: the service's SVG, kept in the document (its elements keep their ids, so a click
// names a space or a unit), zoomed and panned by changing its view box (buttons, keys, a wheel with Ctrl, a drag,
// two fingers), and its legend shown as page text beside it rather than inside the picture.
//
// The SVG arrives as a document the browser's XML parser made from the service's answer (client.svg). Only the
// elements and attributes pictures are drawn with are kept: no script, no foreign content, no event handler, no
// style, no link out of the picture. The page's policy would refuse them anyway.

import {el} from "./dom.js";

const SVG_NS = "http://www.w3.org/2000/svg";
const KEPT = new Set(["svg", "g", "path", "rect", "circle", "ellipse", "line", "polyline", "polygon", "title", "desc",
  "defs", "pattern", "clipPath", "mask", "linearGradient", "radialGradient", "stop", "use", "marker", "text", "tspan"]);
const MAX_ZOOM = 8;
const DRAG_PX = 6; // a pointer that moves further than this pans the board instead of clicking it
const NEAR_PX = 22; // a tap this close to a unit may mean the unit (a 44 px target, whatever the zoom)

// The ids a reader of the current board looks for keep their names (`space-Ura`, `unit-Russia-A-Arc`...); every
// other id of a picture gets the view's prefix, so no id is twice in the page (the layers' `units` or `orders`
// would meet the page's own), and each layer is named by `data-layer` instead.
const OWN_IDS = /^(space|unit|dislodged|order|centre)-/;

/** The picture's root element, with only what pictures are drawn with (see the module's comment); its ids are
 * prefixed with `prefix` but, where `keep`, those of OWN_IDS. */
export function keptSvg(doc, prefix = "board-", keep = true) {
  const root = document.importNode(doc.documentElement, true);
  if (root.namespaceURI !== SVG_NS || root.localName !== "svg") throw new Error("the picture is not an SVG image");
  for (const layer of root.children) if (layer.id) layer.dataset.layer = layer.id;
  const renamed = new Map();
  const walker = [root];
  while (walker.length) {
    const node = walker.pop();
    for (const child of [...node.children]) {
      if (child.namespaceURI !== SVG_NS || !KEPT.has(child.localName)) child.remove();
      else walker.push(child);
    }
    for (const attribute of [...node.attributes]) {
      const name = attribute.name.toLowerCase();
      const link = name === "href" || name.endsWith(":href");
      if (name.startsWith("on") || name === "style" || (link && !attribute.value.startsWith("#"))) {
        node.removeAttributeNode(attribute);
      }
    }
    if (node.id && !(keep && OWN_IDS.test(node.id))) {
      renamed.set(node.id, prefix + node.id);
      node.id = prefix + node.id;
    }
  }
  // References to a renamed id (a pattern's `url(#ice)`, a `use` element's `#...`) follow it.
  for (const node of root.querySelectorAll("*")) {
    for (const attribute of [...node.attributes]) {
      const value = attribute.value;
      if (value.includes("url(#")) {
        attribute.value = value.replace(/url\(#([^)]+)\)/g, (all, id) => (renamed.has(id) ? `url(#${renamed.get(id)})` : all));
      } else if (value.startsWith("#") && renamed.has(value.slice(1))) {
        attribute.value = `#${renamed.get(value.slice(1))}`;
      }
    }
  }
  return root;
}

/** An id as the pictures write it (`adjudicator/render/svg.py` `ident`): parts joined by `-`, other characters `_`. */
export function ident(...parts) {
  return parts.join("-").replace(/[^A-Za-z0-9_.-]/g, "_");
}

export class BoardView {
  /** A view in `container`; `label` names it; `onClick(hit)` hears the clicks on the board (see `hit`). */
  constructor(container, label, {onClick, prefix = "board-", keepIds = true} = {}) {
    this.label = label;
    this.prefix = prefix;
    this.keepIds = keepIds;
    this.onClick = onClick;
    this.svg = null;
    this.full = null; // the whole map (the legend left out), in the picture's units
    this.view = null;
    this.zoomIn = el("button", {type: "button", text: "Zoom in", "aria-controls": null});
    this.zoomOut = el("button", {type: "button", text: "Zoom out"});
    this.whole = el("button", {type: "button", text: "Whole board"});
    this.controls = el("div", {class: "zoom", role: "group", "aria-label": `Zoom: ${label}`, hidden: true},
                       this.zoomIn, this.zoomOut, this.whole);
    this.frame = el("div", {class: "frame", tabindex: 0, role: "region", hidden: true,
                            "aria-label": `${label}: arrow keys move it, + and - zoom, 0 shows it whole`});
    this.note = el("p", {class: "note"});
    this.retry = el("button", {type: "button", text: "Draw it again", hidden: true});
    this.legend = el("ul", {class: "legend"});
    this.legendBox = el("div", {class: "legend-box", hidden: true},
                        el("h3", {class: "legend-h", text: "Legend"}), this.legend);
    container.replaceChildren(this.controls, this.frame, this.note, this.retry, this.legendBox);
    this.retry.addEventListener("click", () => this.show(this.load, this.alt));
    this.zoomIn.addEventListener("click", () => this.zoomBy(1.6));
    this.zoomOut.addEventListener("click", () => this.zoomBy(1 / 1.6));
    this.whole.addEventListener("click", () => this.setView(this.full));
    this.frame.addEventListener("keydown", (event) => this.key(event));
    this.pointers = new Map();
    this.frame.addEventListener("pointerdown", (event) => this.down(event));
    this.frame.addEventListener("pointermove", (event) => this.move(event));
    for (const name of ["pointerup", "pointercancel", "pointerleave"]) {
      this.frame.addEventListener(name, (event) => this.up(event));
    }
    this.frame.addEventListener("click", (event) => this.click(event));
    this.frame.addEventListener("wheel", (event) => this.wheel(event), {passive: false});
  }

  /** Show the picture `load()` gives (an SVG document); a game without pictures says so instead. */
  async show(load, alt) {
    this.load = load;
    this.alt = alt;
    this.note.textContent = "Drawing the board…";
    this.retry.hidden = true;
    let svg;
    try {
      svg = keptSvg(await load(), this.prefix, this.keepIds);
    } catch (error) {
      if (!(error && error.problem)) throw error;
      this.frame.hidden = this.controls.hidden = this.legendBox.hidden = true;
      const none = [404, 422].includes(error.status); // the game (or its board) has no pictures: nothing to retry
      this.note.textContent = none ? `No picture of this board: ${error.problem.detail || error.problem.title}.`
        : `The picture could not be drawn: ${error.text}`;
      this.retry.hidden = none;
      return;
    }
    this.place(svg, alt);
    this.note.textContent = "";
  }

  /** Put a kept SVG in the frame: its legend taken out into the page, the view kept where it was. */
  place(svg, alt) {
    const [x, y, width, height] = (svg.getAttribute("viewBox") || "").split(/[\s,]+/).map(Number);
    const legend = svg.querySelector("g[data-layer='legend']");
    const top = legend ? Number((legend.querySelector("rect") || {getAttribute: () => NaN}).getAttribute("y")) : NaN;
    const full = {x: x || 0, y: y || 0, w: width || 1000, h: Number.isFinite(top) && top > 0 ? top : height || 1000};
    this.showLegend(legend);
    if (legend) legend.remove(); // shown as page text instead (below or beside the board)
    // The picture is one image with its own label: the words drawn in it (each an outline with its text) are not
    // read one by one.
    for (const node of svg.querySelectorAll("[aria-label]")) node.removeAttribute("aria-label");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", alt);
    svg.setAttribute("preserveAspectRatio", "xMidYMid meet");
    for (const title of svg.querySelectorAll("title")) title.remove(); // (its words are the label's)
    const same = this.full && this.full.w === full.w && this.full.h === full.h;
    this.full = full;
    this.svg = svg;
    this.frame.replaceChildren(svg);
    this.frame.style.aspectRatio = `${full.w} / ${full.h}`; // style properties: the page's policy allows them
    this.frame.style.setProperty("--ratio", String(full.w / full.h)); // (the desktop layout fits the screen by it)
    this.frame.hidden = this.controls.hidden = false;
    this.setView(same && this.view ? this.view : full);
    this.units = null; // unit centres, measured when first needed
  }

  /** The legend's entries as a list: each entry's symbol drawn small and its words as text. */
  showLegend(legend) {
    const items = [];
    const start = `${this.prefix}legend-`;
    for (const entry of legend ? legend.querySelectorAll(`:scope > g[id^='${start}']`) : []) {
      const words = [...entry.querySelectorAll("[aria-label]")].map((p) => p.getAttribute("aria-label"));
      const symbol = [...entry.children].filter((child) => !child.hasAttribute("aria-label"));
      items.push(el("li", {"data-key": entry.id.slice(start.length)}, this.symbol(symbol),
                    el("span", {class: "legend-words"}, el("strong", {text: words[0] || ""}),
                       words.length > 1 ? ` ${words.slice(1).join(" ")}` : "")));
    }
    this.legend.replaceChildren(...items);
    this.legendBox.hidden = items.length === 0;
  }

  /** A legend symbol as a small picture of its own (the symbol's elements, scaled to fit). */
  symbol(elements) {
    const box = document.createElementNS(SVG_NS, "svg");
    box.setAttribute("aria-hidden", "true");
    box.setAttribute("class", "legend-symbol");
    const group = document.createElementNS(SVG_NS, "g");
    for (const part of elements) group.append(part.cloneNode(true));
    box.append(group);
    // Measured once drawn: a symbol's extent is its drawing's own.
    requestAnimationFrame(() => {
      try {
        const b = group.getBBox();
        if (b.width > 0 && b.height > 0) box.setAttribute("viewBox", `${b.x - 2} ${b.y - 2} ${b.width + 4} ${b.height + 4}`);
      } catch {
        // (a symbol not laid out: left as it is)
      }
    });
    return box;
  }

  get zoom() {
    return this.full && this.view ? this.full.w / this.view.w : 1;
  }

  setView(view) {
    if (!this.svg) return;
    const f = this.full;
    const w = Math.max(f.w / MAX_ZOOM, Math.min(f.w, view.w));
    const h = w * f.h / f.w;
    const x = Math.max(f.x, Math.min(f.x + f.w - w, view.x));
    const y = Math.max(f.y, Math.min(f.y + f.h - h, view.y));
    this.view = {x, y, w, h};
    this.svg.setAttribute("viewBox", `${x} ${y} ${w} ${h}`);
    this.zoomIn.disabled = this.zoom >= MAX_ZOOM - 1e-6;
    this.zoomOut.disabled = this.whole.disabled = this.zoom <= 1 + 1e-6;
    this.frame.classList.toggle("zoomed", this.zoom > 1 + 1e-6); // zoomed: a drag pans the board, not the page
  }

  /** Zoom by `factor` about a point of the picture (its centre by default). */
  zoomBy(factor, cx, cy) {
    const v = this.view;
    if (!v) return;
    const x = cx ?? v.x + v.w / 2;
    const y = cy ?? v.y + v.h / 2;
    const w = v.w / factor;
    const h = v.h / factor;
    this.setView({x: x - (x - v.x) * (w / v.w), y: y - (y - v.y) * (h / v.h), w, h});
  }

  /** A point of the screen in the picture's units. */
  toPicture(clientX, clientY) {
    const matrix = this.svg.getScreenCTM();
    if (!matrix) return {x: 0, y: 0};
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    return {x: point.x, y: point.y};
  }

  /** Picture units per screen pixel. */
  get unitsPerPixel() {
    const matrix = this.svg && this.svg.getScreenCTM();
    return matrix && matrix.a ? 1 / matrix.a : 1;
  }

  key(event) {
    const v = this.view;
    if (!v) return;
    const step = v.w / 8;
    const moves = {ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step]};
    if (event.key in moves && this.zoom > 1) {
      const [dx, dy] = moves[event.key];
      this.setView({...v, x: v.x + dx, y: v.y + dy});
    } else if (["+", "="].includes(event.key)) this.zoomBy(1.6);
    else if (["-", "_"].includes(event.key)) this.zoomBy(1 / 1.6);
    else if (event.key === "0") this.setView(this.full);
    else return;
    event.preventDefault();
  }

  wheel(event) {
    if (!event.ctrlKey || !this.svg) return; // a plain wheel scrolls the page
    event.preventDefault();
    const p = this.toPicture(event.clientX, event.clientY);
    this.zoomBy(event.deltaY < 0 ? 1.25 : 0.8, p.x, p.y);
  }

  down(event) {
    if (!this.svg) return;
    this.pointers.set(event.pointerId, {x: event.clientX, y: event.clientY, startX: event.clientX,
                                        startY: event.clientY});
    if (this.pointers.size === 1) this.dragged = false;
    if (this.pointers.size === 2) this.pinch = this.spread();
  }

  spread() {
    const [a, b] = [...this.pointers.values()];
    return {d: Math.hypot(a.x - b.x, a.y - b.y) || 1, x: (a.x + b.x) / 2, y: (a.y + b.y) / 2};
  }

  move(event) {
    const p = this.pointers.get(event.pointerId);
    if (!p || !this.view) return;
    const dx = event.clientX - p.x;
    const dy = event.clientY - p.y;
    p.x = event.clientX;
    p.y = event.clientY;
    if (this.pointers.size === 2) {
      const now = this.spread();
      const centre = this.toPicture(now.x, now.y);
      this.zoomBy(now.d / this.pinch.d, centre.x, centre.y);
      this.pinch = now;
      this.dragged = true;
      return;
    }
    if (Math.hypot(event.clientX - p.startX, event.clientY - p.startY) > DRAG_PX) this.dragged = true;
    if (this.dragged && this.zoom > 1) {
      const k = this.unitsPerPixel;
      this.setView({...this.view, x: this.view.x - dx * k, y: this.view.y - dy * k});
      if (this.frame.setPointerCapture) this.frame.setPointerCapture(event.pointerId);
    }
  }

  up(event) {
    this.pointers.delete(event.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
  }

  click(event) {
    if (this.dragged) {
      this.dragged = false;
      return;
    }
    if (this.onClick && this.svg) this.onClick(this.hit(event));
  }

  /** What a click names: the unit or space element it hit (its id), and the units near it, nearest first. */
  hit(event) {
    const element = event.target.closest && event.target.closest("[id^='unit-'], [id^='dislodged-'], [id^='space-']");
    const point = this.toPicture(event.clientX, event.clientY);
    const radius = NEAR_PX * this.unitsPerPixel;
    const near = this.unitCentres()
      .map((u) => ({id: u.id, d: Math.hypot(u.x - point.x, u.y - point.y)}))
      .filter((u) => u.d <= radius).sort((a, b) => a.d - b.d).map((u) => u.id);
    return {id: element ? element.id : null, near};
  }

  unitCentres() {
    if (!this.units) {
      this.units = [];
      for (const unit of this.svg.querySelectorAll("[id^='unit-'], [id^='dislodged-']")) {
        if (unit.id.startsWith("dislodged-mark")) continue;
        try {
          const b = unit.getBBox();
          this.units.push({id: unit.id, x: b.x + b.width / 2, y: b.y + b.height / 2});
        } catch {
          // (an element not laid out)
        }
      }
    }
    return this.units;
  }

  /** Mark the elements of these ids with `name` (and unmark the others). */
  mark(name, ids) {
    if (!this.svg) return;
    for (const node of this.svg.querySelectorAll(`.${name}`)) node.classList.remove(name);
    for (const id of ids) {
      const node = this.svg.getElementById ? this.svg.getElementById(id) : this.svg.querySelector(`#${CSS.escape(id)}`);
      if (node) node.classList.add(name);
    }
  }
}
