// The judged phases, newest first: each opens to the judge's report and the picture of the phase with its orders
// drawn, both fetched when it is first opened.

import {byId, el} from "./dom.js";
import {PictureViewer} from "./picture.js";

const TRIGGERS = {gm: "by the game master", ready: "when everyone was ready", deadline: "at the deadline"};

export class Phases {
  /** The list of the `app`'s game (app: client, gameId, fail()). */
  constructor(app) {
    this.app = app;
    this.entries = [];
    this.drawing = false; // pictures wait for pictures(): the page's words come first
  }

  get path() {
    return `/v1/games/${this.app.gameId}/phases`;
  }

  /** Show every judged phase; `openNewest` opens the latest one with its report. */
  async load(openNewest) {
    const phases = await this.app.client.json("GET", this.path);
    byId("phases").hidden = false;
    byId("no-phases").hidden = phases.length > 0;
    this.drawing = false;
    this.entries = phases.slice().reverse().map((phase) => this.entry(phase));
    byId("phase-list").replaceChildren(...this.entries.map((entry) => entry.item));
    if (openNewest && this.entries.length) {
      this.entries[0].details.open = true;
      await this.report(this.entries[0]);
    }
  }

  /** Draw the pictures of the phases open now, and from now on of each phase as it is opened. */
  async pictures() {
    this.drawing = true;
    await Promise.all(this.entries.filter((entry) => entry.details.open).map((entry) => this.picture(entry)));
  }

  entry(phase) {
    const when = phase.adjudicated_at ? `, ${new Date(phase.adjudicated_at).toLocaleString()}` : "";
    const summary = el("summary", {}, el("span", {class: "phase-name", text: phase.phase}),
                       ` (phase ${phase.phase_no}, judged ${TRIGGERS[phase.trigger] || phase.trigger}${when})`);
    const report = el("pre", {class: "report", tabindex: 0, "aria-label": `The report of ${phase.phase}`});
    const picture = el("div");
    const body = el("div", {class: "phase-body"}, el("h3", {text: `Report: ${phase.phase}`}), report, picture);
    const details = el("details", {"data-phase": phase.phase_no}, summary, body);
    const viewer = new PictureViewer(picture, `The board of ${phase.phase} with its orders`);
    const item = el("li", {value: phase.phase_no}, details);
    const entry = {phase, details, report, viewer, item, reported: null, drawn: null};
    details.addEventListener("toggle", () => {
      if (!details.open) return;
      this.report(entry).then(() => this.drawing && this.picture(entry)).catch((error) => this.app.fail(error));
    });
    return entry;
  }

  /** The phase's report, fetched once. */
  report(entry) {
    entry.reported ??= this.app.client.request("GET", `${this.path}/${entry.phase.phase_no}/report`)
      .then((answer) => answer.text())
      .then((text) => { entry.report.textContent = text; });
    return entry.reported;
  }

  /** The phase's picture, drawn once. */
  picture(entry) {
    const url = `${this.path}/${entry.phase.phase_no}/picture?format=svg`;
    entry.drawn ??= entry.viewer.show(() => this.app.client.request("GET", url).then((answer) => answer.blob()),
                                      `The board before ${entry.phase.phase}, with the orders given`);
    return entry.drawn;
  }
}
