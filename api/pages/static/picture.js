// A zoomable board picture. Pictures are fetched (with the token where the endpoint wants it) and shown as an
// image from a blob: an SVG shown as an image runs no script, whatever it holds.

import {ApiError} from "./client.js";
import {el} from "./dom.js";

const ZOOMS = [1, 1.5, 2, 3, 4]; // times the width of the frame

export class PictureViewer {
  /** A viewer in `container`; `label` names the picture for screen readers. */
  constructor(container, label) {
    this.zoom = 0;
    this.url = null;
    this.label = label;
    this.image = el("img", {alt: "", hidden: true});
    this.frame = el("div", {class: "frame", tabindex: 0, role: "region", hidden: true,
                            "aria-label": `${label}: scroll with the arrow keys; + and - zoom`}, this.image);
    this.zoomIn = el("button", {type: "button", text: "Zoom in"});
    this.zoomOut = el("button", {type: "button", text: "Zoom out"});
    this.controls = el("div", {class: "zoom", role: "group", "aria-label": `Zoom: ${label}`, hidden: true},
                       this.zoomIn, this.zoomOut);
    this.note = el("p", {class: "note"});
    this.retry = el("button", {type: "button", text: "Draw it again", hidden: true});
    container.replaceChildren(this.controls, this.frame, this.note, this.retry);
    this.retry.addEventListener("click", () => this.show(this.load, this.image.alt));
    this.zoomIn.addEventListener("click", () => this.setZoom(this.zoom + 1));
    this.zoomOut.addEventListener("click", () => this.setZoom(this.zoom - 1));
    this.frame.addEventListener("keydown", (event) => this.key(event));
  }

  /** Show the picture `load()` fetches (a Blob); a game without pictures says so instead. */
  async show(load, alt) {
    this.load = load;
    this.image.alt = alt;
    this.note.textContent = "Drawing the board…";
    this.retry.hidden = true;
    let blob;
    try {
      blob = await load();
    } catch (error) {
      if (!(error instanceof ApiError)) throw error;
      this.frame.hidden = this.controls.hidden = true;
      const none = [404, 422].includes(error.status); // the game (or its board) has no pictures: nothing to retry
      this.note.textContent = none ? `No picture of this board: ${error.problem.detail || error.problem.title}.`
                                   : `The picture could not be drawn: ${error.text}`;
      this.retry.hidden = none;
      return;
    }
    if (this.url) URL.revokeObjectURL(this.url);
    this.url = URL.createObjectURL(blob);
    this.image.src = this.url;
    this.image.hidden = this.frame.hidden = this.controls.hidden = false;
    this.note.textContent = "";
    this.setZoom(this.zoom);
  }

  setZoom(step) {
    this.zoom = Math.max(0, Math.min(ZOOMS.length - 1, step));
    this.image.style.width = `${ZOOMS[this.zoom] * 100}%`; // a style property, which the page's policy allows
    this.zoomIn.disabled = this.zoom === ZOOMS.length - 1;
    this.zoomOut.disabled = this.zoom === 0;
  }

  key(event) {
    const steps = {"+": 1, "=": 1, "-": -1, "_": -1};
    if (event.key in steps) {
      this.setZoom(this.zoom + steps[event.key]);
      event.preventDefault();
    } else if (event.key === "0") {
      this.setZoom(0);
      event.preventDefault();
    }
  }
}
