// The judged phases, newest first: each opens to the judge's report and the picture of the phase with its orders
// drawn, fetched when it is first opened.

import {byId, el} from "./dom.js";
import {PictureViewer} from "./picture.js";

const TRIGGERS = {gm: "by the game master", ready: "when everyone was ready", deadline: "at the deadline"};

export class Phases {
  /** The list of the `app`'s game (app: client, gameId, fail()). */
  constructor(app) {
    this.app = app;
  }

  /** Show every judged phase; `openNewest` opens the latest one's report (its picture comes with pictures()). */
  async load(openNewest) {
    const phases = await this.app.client.json("GET", `/v1/games/${this.app.gameId}/phases`);
    byId("phases").hidden = false;
    byId("no-phases").hidden = phases.length > 0;
    const items = phases.slice().reverse().map((phase) => this.item(phase));
    byId("phase-list").replaceChildren(...items.map((i) => i.node));
    this.pending = [];
    if (openNewest && items.length) {
      items[0].details.open = true;
      await items[0].report();
    }
  }

  /** Draw the pictures of the phases opened so far. */
  async pictures() {
    const drawing = this.pending;
    this.pending = [];
    await Promise.all(drawing.map((draw) => draw()));
  }

  item(phase) {
    const body = el("div", {class: "phase-body"}, el("p", {class: "note", text: "Loading the report…"}));
    const when = phase.adjudicated_at ? `, ${new Date(phase.adjudicated_at).toLocaleString()}` : "";
    const summary = el("summary", {},
      el("span", {class: "phase-name", text: phase.phase}),
      ` (phase ${phase.phase_no}, judged ${TRIGGERS[phase.trigger] || phase.trigger}${when})`);
    const details = el("details", {"data-phase": phase.phase_no}, summary, body);
    let loading = null;
    // The report is fetched when the phase is first opened; its picture after it (or with pictures()).
    const report = () => (loading ??= this.fill(phase, body));
    details.addEventListener("toggle", () => {
      if (details.open && !loading) {
        report().then((draw) => draw()).catch((error) => this.app.fail(error));
      }
    });
    return {node: el("li", {}, details), details, report: () => report().then((draw) => this.pending.push(draw))};
  }

  /** Show a phase's report; answers the function that draws its picture. */
  async fill(phase, body) {
    const path = `/v1/games/${this.app.gameId}/phases/${phase.phase_no}`;
    const report = el("pre", {class: "report", tabindex: 0, "aria-label": `The report of ${phase.phase}`});
    const picture = el("div");
    body.replaceChildren(el("h3", {text: `Report: ${phase.phase}`}), report, picture);
    report.textContent = await this.app.client.request("GET", `${path}/report`).then((r) => r.text());
    const viewer = new PictureViewer(picture, `The board of ${phase.phase} with its orders`);
    viewer.note.textContent = "The picture is drawn after the report.";
    return () => viewer.show(() => this.app.client.request("GET", `${path}/picture?format=svg`).then((r) => r.blob()),
                             `The board before ${phase.phase}, with the orders given`);
  }
}
