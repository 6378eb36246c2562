// A power's orders: each unit with its legal orders to pick from (where the game lists them), a box to type
// orders in, every line's status as the service answered it, and ready / not ready. Whether an order is
// understood or legal is the service's answer alone: the page sends the lines and shows what comes back.

import {ApiError} from "./client.js";
import {byId, el, say} from "./dom.js";
import {statusItem, statusWords, tally} from "./statuses.js";

const NO_ORDER = ""; // the select's value for "no order": the rules' default applies

export class OrdersPanel {
  /** The panel of the `app`'s seat (app: client, gameId, reload(), fail()). */
  constructor(app) {
    this.app = app;
    this.rows = [];
    this.typed = byId("typed");
    this.ready = byId("ready");
    byId("orders-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    byId("withdraw").addEventListener("click", () => this.withdraw());
    this.ready.addEventListener("change", () => this.setReady(this.ready.checked));
    byId("orders-form").addEventListener("input", () => { byId("unsent").hidden = false; });
  }

  get path() {
    return `/v1/games/${this.app.gameId}`;
  }

  /** The phase shown, which every write names: one judged since is refused (409) and the page shows the new one. */
  get phaseNo() {
    return this.app.view.phase_no;
  }

  /** Show the seat's units, lists and pending orders for the game view `view`. */
  async load(view) {
    byId("orders-h").textContent = `Your orders: ${view.you}, ${view.phase}`;
    const seat = view.seats.find((s) => s.power === view.you);
    byId("disorder-note").hidden = !(seat && seat.civil_disorder);
    byId("disorder-note").textContent = `Your seat is in civil disorder (${seat ? seat.missed : 0} missed orders):`
      + " it counts as ready and its units take the rules' default orders until you send orders again.";
    const own = this.app.client.json("GET", `${this.path}/orders`);
    const [legal, pending] = await Promise.all([this.legalOrders(view), own]);
    this.buildRows(legal, view);
    this.fill(pending);
  }

  /** An ended game's panel: no unit to order, nothing typed, no answer (the section is hidden too). */
  clear() {
    this.rows = [];
    byId("units").replaceChildren();
    this.typed.value = "";
    byId("statuses").replaceChildren();
  }

  /** The legal orders of the seat's units, or null where the game (or its board) has no lists. */
  async legalOrders(view) {
    const note = byId("no-lists");
    note.hidden = true;
    try {
      return await this.app.client.json("POST", "/v1/orders/legal", {body: {state: view.state, power: view.you},
                                                                       auth: false});
    } catch (error) {
      if (!(error instanceof ApiError) || ![400, 404, 422].includes(error.status)) throw error;
      note.textContent = `Type your orders below: there are no lists to pick from (${error.problem.detail}).`;
      note.hidden = false;
      return null;
    }
  }

  buildRows(legal, view) {
    const box = byId("units");
    this.rows = [];
    if (legal === null) {
      box.replaceChildren();
      return;
    }
    const mine = Object.values(legal.powers || {})[0] || {};
    const due = Math.abs(Object.values(legal.adjustments || {})[0] || 0);
    const rows = [];
    for (const [unit, options] of Object.entries(mine)) {
      // An adjustment phase lists builds or removals once; the service says how many are due.
      const count = unit === "builds" || unit === "removals" ? due : 1;
      const name = unit === "builds" ? "Build" : unit === "removals" ? "Removal" : unit;
      for (let i = 1; i <= count; i++) rows.push(this.row(count > 1 ? `${name} ${i}` : name, options, rows.length));
    }
    this.rows = rows;
    const seat = view.seats.find((s) => s.power === view.you);
    const empty = rows.length ? [] : [el("p", {class: "note", text: seat && !seat.must_act
      ? "You have nothing to order in this phase." : "No unit of yours has orders to pick this phase."})];
    box.replaceChildren(...rows.map((r) => r.node), ...empty);
  }

  row(label, options, index) {
    const id = `unit-${index}`;
    const select = el("select", {id, "aria-describedby": `${id}-status`},
                      el("option", {value: NO_ORDER, text: "No order (the rules' default)"}),
                      options.map((o) => el("option", {value: o, text: o})));
    const status = el("span", {id: `${id}-status`, class: "unit-status"});
    const node = el("div", {class: "unit"}, el("label", {for: id, text: label}), select, status);
    return {node, select, status};
  }

  /** Put the pending orders back where they came from: a unit's list when it offers the line, else the box. */
  fill(own) {
    const typed = [];
    for (const row of this.rows) row.select.value = NO_ORDER;
    for (const entry of own.orders) {
      const row = this.rows.find((r) => r.select.value === NO_ORDER
                                        && [...r.select.options].some((o) => o.value === entry.order));
      if (row) row.select.value = entry.order;
      else typed.push(entry.order);
    }
    this.typed.value = typed.join("\n");
    this.showAnswer(own);
  }

  /** The lines to send: the orders picked, then those typed. */
  lines() {
    const picked = this.rows.map((r) => r.select.value).filter((value) => value !== NO_ORDER);
    return [...picked, ...this.typed.value.split("\n").map((t) => t.trim()).filter(Boolean)];
  }

  async send() {
    try {
      const answer = await this.app.client.json("PUT", `${this.path}/orders`,
                                                {body: {orders: this.lines(), phase_no: this.phaseNo}});
      this.showAnswer(answer);
      say(`Orders sent for ${answer.phase}: ${tally(answer.orders)}.`);
      if (answer.adjudicated) await this.app.reload(true);
    } catch (error) {
      this.app.fail(error);
    }
  }

  async withdraw() {
    try {
      const answer = await this.app.client.json("DELETE", `${this.path}/orders?phase_no=${this.phaseNo}`);
      for (const row of this.rows) row.select.value = NO_ORDER;
      this.typed.value = "";
      this.showAnswer(answer);
      say("Your orders are withdrawn.");
    } catch (error) {
      this.app.fail(error);
    }
  }

  async setReady(ready) {
    try {
      const answer = await this.app.client.json("PUT", `${this.path}/ready`,
                                                {body: {ready, phase_no: this.phaseNo}});
      this.ready.checked = answer.ready;
      say(answer.ready ? `You are ready for ${answer.phase}.` : `You are not ready for ${answer.phase}.`);
      if (answer.adjudicated) await this.app.reload(true);
    } catch (error) {
      this.ready.checked = !ready;
      this.app.fail(error);
    }
  }

  /** The service's answer: each line's status in the list, and beside the unit it was picked for. */
  showAnswer(answer) {
    const unanswered = new Set(this.rows);
    for (const row of this.rows) row.status.textContent = "";
    for (const entry of answer.orders) {
      const row = [...unanswered].find((r) => r.select.value === entry.order);
      if (!row) continue; // a typed line
      unanswered.delete(row);
      row.status.textContent = statusWords(entry);
      row.status.className = `unit-status status-${/^[a-z]+$/.test(entry.status) ? entry.status : "other"}`;
    }
    const list = byId("statuses");
    list.replaceChildren(...answer.orders.map(statusItem));
    list.dataset.answers = String(Number(list.dataset.answers || 0) + 1); // a new answer is shown (tests wait on it)
    byId("no-statuses").hidden = answer.orders.length > 0;
    byId("unsent").hidden = true;
    this.ready.checked = Boolean(answer.ready);
  }
}
