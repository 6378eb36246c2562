// The judged phases, newest first: each opens to the judge's report as a table (each order, its result and why,
// by power) with the report's text beside it, and the picture of the phase with its orders drawn, both fetched
// when it is first opened.

import {byId, el} from "./dom.js";
import {BoardView} from "./board.js";

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
    const table = el("div", {class: "report-table"});
    const report = el("pre", {class: "report", tabindex: 0, "aria-label": `The report of ${phase.phase}`});
    const text = el("details", {class: "report-text"}, el("summary", {text: "The report as text"}), report);
    const picture = el("div", {class: "phase-picture"});
    const body = el("div", {class: "phase-body"}, el("h3", {text: `Report: ${phase.phase}`}), table, text, picture);
    const details = el("details", {"data-phase": phase.phase_no}, summary, body);
    const viewer = new BoardView(picture, `The board of ${phase.phase} with its orders`,
                                 {prefix: `phase-${phase.phase_no}-`, keepIds: false});
    const item = el("li", {value: phase.phase_no}, details);
    const entry = {phase, details, report, table, viewer, item, reported: null, drawn: null};
    details.addEventListener("toggle", () => {
      if (!details.open) return;
      this.report(entry).then(() => this.drawing && this.picture(entry)).catch((error) => this.app.fail(error));
    });
    return entry;
  }

  /** The phase's report, fetched once: as a table of its orders, and as the judge's text. */
  report(entry) {
    const number = entry.phase.phase_no;
    entry.reported ??= Promise.all([
      this.app.client.request("GET", `${this.path}/${number}/report`).then((answer) => answer.text()),
      this.app.client.json("GET", `${this.path}/${number}`),
    ]).then(([text, phase]) => {
      entry.report.textContent = text;
      entry.table.replaceChildren(...reportTables(phase));
    });
    return entry.reported;
  }

  /** The phase's picture, drawn once. */
  picture(entry) {
    const url = `${this.path}/${entry.phase.phase_no}/picture?format=svg`;
    entry.drawn ??= entry.viewer.show(() => this.app.client.svg("GET", url, undefined, {auth: true}),
                                      `The board before ${entry.phase.phase}, with the orders given`);
    return entry.drawn;
  }
}

/** A judged phase's orders as tables, one a power (or seat): the order, its result and the judge's reason. */
export function reportTables(phase) {
  const entries = ((phase.report || {}).orders || []).filter((entry) => entry && typeof entry === "object");
  const byPower = new Map();
  for (const entry of entries) {
    const who = entry.power || "The game master";
    byPower.set(who, [...(byPower.get(who) || []), entry]);
  }
  if (!byPower.size) return [el("p", {class: "note", text: "No order was judged in this phase."})];
  return [...byPower].map(([power, list]) => el("div", {class: "scroll"}, el("table", {class: "report-orders"},
    el("caption", {text: power}),
    el("thead", {}, el("tr", {}, el("th", {scope: "col", text: "Order"}), el("th", {scope: "col", text: "Result"}),
                       el("th", {scope: "col", text: "Why"}))),
    el("tbody", {}, list.map((entry) => el("tr", {class: `status-${/^[a-z]+$/.test(entry.status) ? entry.status
      : "other"}`}, el("td", {}, el("code", {text: String(entry.order ?? "")})),
    el("td", {}, el("strong", {text: String(entry.status ?? "")})),
    el("td", {text: [entry.reason, entry.understood_as && entry.understood_as !== entry.order
      ? `read as ${entry.understood_as}` : ""].filter(Boolean).join("; ")})))))));
}
