// Orders picked on the map, from the legal orders the service listed with their parts (`parts: true`): click a
// unit, then where it goes (a move or a retreat); a unit, then the unit it supports or convoys and where that one
// goes (click the same unit twice to support its hold); the unit itself again to hold (or, retreating, to
// disband); a space to build in, a unit to remove. Where the clicks fit more than one legal order (a coast, by
// land or by convoy, support or convoy, army or fleet) the page asks with a button for each. It holds no rule:
// every order it can make is one the service listed, word for word.

import {el, say} from "./dom.js";
import {ident} from "./board.js";

const province = (location) => String(location || "").split("/")[0];

/** The clicks an order's parts are picked with, each a step {role: "unit" | "place", province}: every way. */
export function ways(part) {
  const unit = part.unit ? province(part.unit.location) : null;
  const target = part.target ? province(part.target.location) : null;
  const dest = part.destination ? province(part.destination) : null;
  const U = (p) => ({role: "unit", province: p});
  const P = (p) => ({role: "place", province: p});
  switch (part.kind) {
    case "hold":
    case "disband":
      return [[U(unit)]];
    case "move":
    case "retreat":
      return part.path && part.path.length ? [[P(dest)], [...part.path.map((s) => P(province(s))), P(dest)]]
        : [[P(dest)]];
    case "support":
      return dest && dest !== target ? [[U(target), P(dest)]] : [[U(target), U(target)], [U(target), P(target)]];
    case "convoy":
      return [[U(target), P(dest)]];
    default: // build, remove, waive: chosen by the first click (or a button) alone
      return [[]];
  }
}

export class Picker {
  /** Picking on `board` (a BoardView) for the `panel` (OrdersPanel: setOrder(key, text)); `box`: the prompt. */
  constructor(panel, box) {
    this.panel = panel;
    this.box = box;
    this.board = null;
    this.clear();
    document.addEventListener("keydown", (event) => {
      if (event.key === "Escape" && this.key) this.cancel();
    });
  }

  /** The seat's legal orders with their parts (`{key: [part...]}`), its power and the position's units. */
  load(parts, power, state) {
    this.parts = parts || {};
    this.power = power;
    this.byElement = new Map(); // an element id -> the province it stands for, and the own key it names
    this.own = new Map(); // a province -> the key of the seat's unit (or dislodged unit) there
    const units = (state && state.units) || {};
    for (const [owner, list] of Object.entries(units)) {
      for (const written of list) {
        const [type, location] = String(written).split(" ");
        this.byElement.set(ident("unit", owner, type, location), {province: province(location)});
      }
    }
    const mine = (key, type, location) => {
      this.own.set(province(location), key);
      for (const prefix of ["unit", "dislodged"]) {
        this.byElement.set(ident(prefix, power, type, location), {province: province(location), key});
      }
    };
    for (const [key, options] of Object.entries(this.parts)) {
      if (key === "removals") {
        for (const part of options) if (part.unit) mine(key, part.unit.type, part.unit.location);
      } else if (key !== "builds") {
        const [type, location] = key.split(" ");
        if (location) mine(key, type, location);
      }
    }
    for (const options of Object.values(this.parts)) {
      for (const part of options) {
        for (const loc of [part.unit && part.unit.location, part.target && part.target.location, part.destination,
          ...(part.path || [])]) {
          if (loc) this.byElement.set(ident("space", province(loc)), {province: province(loc)});
        }
      }
    }
    this.clear();
  }

  attach(board) {
    this.board = board;
    this.highlight();
  }

  get active() {
    return Object.keys(this.parts || {}).length > 0;
  }

  clear() {
    this.key = null;
    this.clicks = [];
    this.candidates = [];
    this.prompt(this.active ? this.idleWords() : "", []);
    this.highlight();
  }

  cancel() {
    this.clear();
    say("No unit is picked on the board now.");
  }

  idleWords() {
    if (this.parts.builds) return "On the board: click a home centre to build in.";
    if (this.parts.removals) return "On the board: click a unit of yours to remove it.";
    return "On the board: click a unit of yours, then where it goes.";
  }

  /** A click on the board (BoardView.hit): the step it makes, or a unit picked afresh. */
  click(hit) {
    if (!this.active) return;
    const named = this.resolve(hit);
    if (!named) return;
    if (this.key === null) {
      this.start(named);
      return;
    }
    const step = this.clicks.length;
    const fits = (role) => this.candidates.filter((c) => c.steps.length > step && c.steps[step].province === named.province
      && (role === null || c.steps[step].role === role));
    let next = fits(named.unit ? "unit" : "place");
    if (!next.length) next = fits(null);
    if (!next.length) {
      if (named.key && named.key !== this.key) {
        this.start(named); // another unit of one's own: pick it instead
        return;
      }
      say(`${this.label()} has no order there (${named.province}): click another space, or Cancel.`);
      return;
    }
    this.clicks.push(named);
    this.candidates = next;
    this.settle();
  }

  /** What a click names: the unit element hit, else a unit near the tap that the next step could use, else the
   * space hit. */
  resolve(hit) {
    const direct = hit.id ? this.byElement.get(hit.id) : null;
    if (direct && !hit.id.startsWith("space-")) return {...direct, unit: true};
    const next = (role, where) => this.candidates.some((c) => c.steps[this.clicks.length]
      && c.steps[this.clicks.length].role === role && c.steps[this.clicks.length].province === where);
    // A space the next step may name as a place is that place, even beside a unit (a tap aside from the unit).
    if (direct && this.key !== null && next("place", direct.province)) return {...direct, unit: false};
    const wanted = (entry) => entry && (this.key === null ? entry.key !== undefined : next("unit", entry.province));
    for (const id of hit.near) {
      const entry = this.byElement.get(id);
      if (wanted(entry)) return {...entry, unit: true};
    }
    if (direct) return {...direct, unit: false, key: this.own.get(direct.province)};
    return null;
  }

  start(named) {
    if (this.parts.builds && !named.key) {
      const here = this.parts.builds.filter((p) => p.unit && province(p.unit.location) === named.province);
      if (!here.length) {
        say(`No build in ${named.province}: click one of your empty home centres.`);
        return;
      }
      this.key = "builds";
      this.clicks = [named];
      this.candidates = here.map((part) => ({part, steps: [named]}));
      this.settle();
      return;
    }
    const key = named.key || this.own.get(named.province);
    if (!key || !this.parts[key]) {
      say(this.parts.builds ? "Click an empty home centre of yours to build there."
        : "That is not a unit of yours with orders to give: click one of yours.");
      return;
    }
    this.key = key;
    this.clicks = [];
    const options = key === "removals" ? this.parts[key].filter((p) => p.unit && province(p.unit.location)
      === named.province) : this.parts[key];
    this.candidates = options.flatMap((part) => ways(part).map((steps) => ({part, steps})));
    this.settle();
  }

  /** After a click: one order left, set it; several complete, ask which; else say what to click next. */
  settle() {
    const step = this.clicks.length;
    const done = unique(this.candidates.filter((c) => c.steps.length === step).map((c) => c.part));
    const more = this.candidates.filter((c) => c.steps.length > step);
    if (done.length === 1 && !more.length) {
      this.choose(done[0]);
      return;
    }
    const words = step === 0 ? `${this.label()}: click where it goes, a unit it supports or convoys, or itself ` +
      "to hold."
      : more.length ? `${this.label()}: click the next space${done.length ? ", or pick an order here" : ""}.`
        : `${this.label()}: which order?`;
    this.prompt(words, done);
    this.highlight();
  }

  label() {
    return this.key === "builds" ? "Build" : this.key === "removals" ? "Removal" : this.key;
  }

  choose(part) {
    this.panel.setOrder(this.key, part.order, "map");
    this.clear();
    this.prompt(`${part.order}: in your orders, not sent yet. ${this.idleWords()}`, []);
  }

  /** The prompt under the board, with a button for each order the clicks so far complete (and Cancel). */
  prompt(words, parts) {
    if (!this.box) return;
    const buttons = parts.map((part) => {
      const button = el("button", {type: "button", class: "pick-order", "data-order": part.order, text: part.order});
      button.addEventListener("click", () => this.choose(part));
      return button;
    });
    if (this.key !== null) {
      const cancel = el("button", {type: "button", id: "pick-cancel", text: "Cancel"});
      cancel.addEventListener("click", () => this.cancel());
      buttons.push(cancel);
    }
    const waive = this.key === null && this.parts && this.parts.builds
      ? this.parts.builds.filter((p) => p.kind === "waive").slice(0, 1) : [];
    for (const part of waive) {
      const button = el("button", {type: "button", class: "pick-order", "data-order": part.order,
                                   text: `${part.order} (build nothing)`});
      button.addEventListener("click", () => this.panel.setOrder("builds", part.order, "map"));
      buttons.push(button);
    }
    this.box.replaceChildren(el("p", {id: "pick-words", text: words}),
                             ...(buttons.length ? [el("div", {class: "actions"}, buttons)] : []));
    this.box.hidden = !words && !buttons.length;
  }

  /** The picked unit marked, and the spaces and units the next click may name. */
  highlight() {
    if (!this.board) return;
    const step = this.clicks.length;
    const next = new Set();
    for (const c of this.candidates) if (c.steps.length > step) next.add(c.steps[step].province);
    const picked = this.key && this.key !== "builds" ? [...this.byElement].filter(([, v]) => v.key === this.key)
      .map(([id]) => id) : [];
    this.board.mark("picked", picked);
    this.board.mark("can-go", [...next].map((p) => ident("space", p)));
  }
}

function unique(parts) {
  const seen = new Set();
  return parts.filter((p) => !seen.has(p.order) && seen.add(p.order));
}
