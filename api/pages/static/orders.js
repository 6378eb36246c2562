// A power's orders: one box holding every order, one a line, whichever way it came (typed, picked from a unit's
// list, or clicked on the board), each unit's list showing the order the box holds for it, every line's status as
// the service answered it, and ready / not ready. One order a unit: a second replaces the first, and the page says
// so. Whether an order is understood or legal is the service's answer alone: the page sends the lines and shows
// what comes back; which unit a typed line is for, the service's reader says (`/v1/orders/parse`).

import {ApiError} from "./client.js";
import {byId, el, say} from "./dom.js";
import {statusItem, statusWords, tally} from "./statuses.js";

const NO_ORDER = ""; // the select's value for "no order": the rules' default applies
const TYPED = "\u0000typed"; // the select's value for a line typed in the box that its list does not hold
const PARSE_WAIT_MS = 400;
const province = (location) => String(location || "").split("/")[0];

export class OrdersPanel {
  /** The panel of the `app`'s seat (app: client, gameId, view, reload(), refresh(), fail(), ordersChanged()). */
  constructor(app) {
    this.app = app;
    this.rows = [];
    this.owner = new Map(); // a listed order's text -> its key (a unit, "builds" or "removals")
    this.parsed = new Map(); // a typed line -> its key, or null (as the service's reader read it)
    this.typed = byId("typed");
    this.ready = byId("ready");
    byId("orders-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send();
    });
    byId("withdraw").addEventListener("click", () => this.withdraw());
    this.ready.addEventListener("change", () => this.setReady(this.ready.checked));
    this.typed.addEventListener("input", () => {
      this.unsent(true);
      this.sync();
      clearTimeout(this.parseTimer);
      this.parseTimer = setTimeout(() => this.readTyped(), PARSE_WAIT_MS);
    });
    byId("statuses").addEventListener("click", (event) => this.suggestion(event));
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
    this.view = view;
    byId("orders-h").textContent = `Your orders: ${view.you}, ${view.phase}`;
    const seat = view.seats.find((s) => s.power === view.you);
    byId("disorder-note").hidden = !(seat && seat.civil_disorder);
    byId("disorder-note").textContent = `Your seat is in civil disorder (${seat ? seat.missed : 0} missed orders):`
      + " it counts as ready and its units take the rules' default orders until you send orders again.";
    const own = this.app.client.json("GET", `${this.path}/orders`);
    const [legal, pending] = await Promise.all([this.legalOrders(view), own]);
    this.legal = legal;
    this.buildRows(legal, view);
    this.fill(pending);
    return legal;
  }

  /** An ended game's panel: no unit to order, nothing typed, no answer (the section is hidden too). */
  clear() {
    this.rows = [];
    byId("units").replaceChildren();
    this.typed.value = "";
    byId("statuses").replaceChildren();
  }

  /** The legal orders of the seat's units with their parts, or null where the game (or its board) has none. */
  async legalOrders(view) {
    const note = byId("no-lists");
    note.hidden = true;
    try {
      return await this.app.client.json("POST", "/v1/orders/legal", {
        body: {state: view.state, power: view.you, parts: true}, auth: false});
    } catch (error) {
      if (!(error instanceof ApiError) || ![400, 404, 422].includes(error.status)) throw error;
      note.textContent = `Type your orders below: there are no lists to pick from (${error.problem.detail}).`;
      note.hidden = false;
      return null;
    }
  }

  /** The seat's lists with their parts (`{key: [part...]}`), for the board's picker. */
  get parts() {
    return this.legal ? Object.values(this.legal.parts || {})[0] || {} : {};
  }

  buildRows(legal, view) {
    const box = byId("units");
    this.rows = [];
    this.owner = new Map();
    this.parsed = new Map();
    this.readAs = new Map();
    if (legal === null) {
      box.replaceChildren();
      return;
    }
    const mine = Object.values(legal.powers || {})[0] || {};
    this.due = Math.abs(Object.values(legal.adjustments || {})[0] || 0);
    const rows = [];
    for (const [key, options] of Object.entries(mine)) {
      // An adjustment phase lists builds or removals once; the service says how many are due.
      const count = key === "builds" || key === "removals" ? this.due : 1;
      const name = key === "builds" ? "Build" : key === "removals" ? "Removal" : key;
      for (const option of options) this.owner.set(option, key);
      for (let i = 1; i <= count; i++) {
        rows.push(this.row(key, count > 1 ? `${name} ${i}` : name, options, rows.length));
      }
    }
    this.rows = rows;
    const seat = view.seats.find((s) => s.power === view.you);
    const empty = rows.length ? [] : [el("p", {class: "note", text: seat && !seat.must_act
      ? "You have nothing to order in this phase." : "No unit of yours has orders to pick this phase."})];
    box.replaceChildren(...rows.map((r) => r.node), ...empty);
  }

  row(key, label, options, index) {
    const id = `unit-${index}`;
    const typed = el("option", {value: TYPED, hidden: true, disabled: true});
    const select = el("select", {id, "aria-describedby": `${id}-status`},
                      el("option", {value: NO_ORDER, text: "No order (the rules' default)"}),
                      options.map((o) => el("option", {value: o, text: o})), typed);
    const status = el("span", {id: `${id}-status`, class: "unit-status"});
    const note = el("span", {class: "unit-note"});
    const node = el("div", {class: "unit", "data-key": key}, el("label", {for: id, text: label}), select, status, note);
    const row = {key, node, select, status, note, typed, line: null};
    select.addEventListener("change", () => this.picked(row));
    return row;
  }

  /** The lines in the box, trimmed, blank ones left out. */
  boxLines() {
    return this.typed.value.split("\n").map((t) => t.trim()).filter(Boolean);
  }

  /** Which list a line is for: a listed order's own, else as the service read it (undefined: not read yet). */
  keyOf(line) {
    return this.owner.has(line) ? this.owner.get(line) : this.parsed.get(line);
  }

  /** The box's lines by list, in the box's order. */
  linesByKey() {
    const byKey = new Map();
    for (const line of this.boxLines()) {
      const key = this.keyOf(line);
      if (key) byKey.set(key, [...(byKey.get(key) || []), line]);
    }
    return byKey;
  }

  /** How many orders a list takes: the builds or removals due, else one. */
  room(key) {
    return key === "builds" || key === "removals" ? this.due : 1;
  }

  /** Each list shows the order the box holds for it; two orders for one unit are told. */
  sync() {
    const byKey = this.linesByKey();
    const seen = new Map();
    for (const row of this.rows) {
      const lines = byKey.get(row.key) || [];
      const room = this.room(row.key);
      const kept = lines.slice(-room); // the last ones count: a later line replaces an earlier one
      const index = seen.get(row.key) || 0;
      seen.set(row.key, index + 1);
      row.line = kept[index] ?? null;
      if (row.line === null) row.select.value = NO_ORDER;
      else if (this.owner.get(row.line) === row.key) {
        row.select.value = row.line;
      } else {
        row.typed.textContent = `Typed: ${row.line}`;
        row.typed.hidden = false;
        row.select.value = TYPED;
      }
      if (row.line === null || this.owner.get(row.line) === row.key) row.typed.hidden = true;
      const dropped = index === 0 ? lines.slice(0, Math.max(0, lines.length - room)) : [];
      row.note.textContent = dropped.length ? `Only the last order counts: ${dropped.join(", ")} will not be sent.` : "";
    }
    this.app.ordersChanged?.(this.drawnLines());
  }

  /** The lines to draw on the board as pending: those the lists hold, as the service wrote or read them. */
  drawnLines() {
    return this.rows.map((r) => r.line).filter((line) => line !== null).map((line) => this.canonical.get(line) || line);
  }

  get canonical() {
    this.readAs ??= new Map();
    return this.readAs;
  }

  /** A unit's list changed: its line in the box is replaced (or taken out for "No order"). */
  picked(row) {
    const value = row.select.value;
    if (value === TYPED) return;
    if (value === NO_ORDER) {
      if (row.line !== null) this.replaceLines([row.line], null);
      say(`${row.node.querySelector("label").textContent}: no order (the rules' default).`);
    } else if (row.line !== null) {
      this.replaceLines([row.line], value);
      say(`${value} replaces ${row.line}.`);
    } else {
      this.setOrder(row.key, value, "list");
      return;
    }
    this.unsent(true);
    this.sync();
  }

  /** Put `text` in the box for the list `key`: it replaces the unit's order there (a build or removal: the one for
   * the same place, or the first when all that are due are given), and the page says what it replaced. */
  setOrder(key, text, via) {
    const lines = (this.linesByKey().get(key) || []);
    let replaced = [];
    if (key === "builds" || key === "removals") {
      const where = this.placeOf(key, text);
      replaced = lines.filter((line) => where !== null && this.placeOf(key, line) === where);
      if (!replaced.length && lines.length >= this.due && lines.length) replaced = [lines[0]];
    } else {
      replaced = lines;
    }
    replaced = replaced.filter((line) => line !== text);
    if (lines.includes(text) && !replaced.length) {
      say(`${text} is in your orders already.`);
      return;
    }
    if (replaced.length) this.replaceLines(replaced, text);
    else this.typed.value = [...this.boxLines(), text].join("\n");
    const why = key === "builds" && replaced.length && this.placeOf(key, replaced[0]) !== this.placeOf(key, text)
      ? ` (you may give ${this.due})` : "";
    say(replaced.length ? `${text} replaces ${replaced.join(", ")}${why}.`
      : `${text} is in your orders${via === "map" ? " (picked on the board)" : ""}: not sent yet.`);
    this.unsent(true);
    this.sync();
  }

  /** The place a build or removal is at (from its listed parts), or null (a waive, or a line not listed). */
  placeOf(key, line) {
    const part = (this.parts[key] || []).find((p) => p.order === line);
    return part && part.unit ? province(part.unit.location) : null;
  }

  /** Replace the first of `old` in the box by `text` (null: take it out) and drop the others. */
  replaceLines(old, text) {
    const out = [];
    let put = false;
    for (const line of this.boxLines()) {
      if (old.includes(line)) {
        if (!put && text !== null) out.push(text);
        put = true;
      } else {
        out.push(line);
      }
    }
    this.typed.value = out.join("\n");
  }

  /** Ask the service's reader which unit each typed line is for (lines the lists do not hold, not read yet). */
  async readTyped() {
    if (!this.rows.length) return;
    const lines = this.boxLines().filter((line) => !this.owner.has(line) && !this.parsed.has(line));
    if (!lines.length) return;
    const state = this.view.state;
    const body = {variant: state.variant, state, orders: [`${this.view.you}:`, ...lines].join("\n")};
    if (state.board) body.board = state.board;
    let answer;
    try {
      answer = await this.app.client.json("POST", "/v1/orders/parse", {body, auth: false});
    } catch {
      return; // (the lists stay as they are; sending the orders says what the service makes of them)
    }
    for (const line of lines) this.parsed.set(line, null);
    const keys = new Map(this.rows.map((r) => [r.key.includes(" ") ? province(r.key.split(" ")[1]) : r.key, r.key]));
    for (const order of answer.orders || []) {
      const line = lines[order.line - 2]; // (line 1 is the power's header)
      if (line === undefined || (order.power && order.power !== this.view.you)) continue;
      let key = null;
      if (order.kind === "build" || order.kind === "waive") key = keys.has("builds") ? "builds" : null;
      else if (order.kind === "remove") key = keys.has("removals") ? "removals" : null;
      else if (order.unit) key = keys.get(province(order.unit.location)) || null;
      this.parsed.set(line, key);
      if (order.canonical) this.canonical.set(line, order.canonical);
    }
    this.sync();
  }

  /** Put the pending orders in the box, each list showing its own. */
  fill(own) {
    this.typed.value = own.orders.map((entry) => entry.order).join("\n");
    this.sync();
    this.showAnswer(own);
    this.readTyped();
  }

  /** The lines to send: the box's, one order a unit (the last one given); the others are told and dropped. */
  lines() {
    const byKey = this.linesByKey();
    const dropped = new Set();
    for (const [key, lines] of byKey) for (const line of lines.slice(0, Math.max(0, lines.length - this.room(key)))) {
      dropped.add(line);
    }
    if (dropped.size) say(`Not sent, as a later order for the same unit replaces it: ${[...dropped].join(", ")}.`);
    return this.boxLines().filter((line) => !dropped.has(line));
  }

  unsent(yes) {
    byId("unsent").hidden = !yes;
  }

  async send() {
    try {
      const lines = this.lines();
      const answer = await this.app.client.json("PUT", `${this.path}/orders`,
                                                {body: {orders: lines, phase_no: this.phaseNo}});
      this.typed.value = lines.join("\n");
      this.sync();
      this.showAnswer(answer);
      say(`Orders sent for ${answer.phase}: ${tally(answer.orders)}.`);
      if (answer.adjudicated) await this.app.reload(true);
      else await this.app.refresh();
    } catch (error) {
      this.app.fail(error);
    }
  }

  async withdraw() {
    try {
      const answer = await this.app.client.json("DELETE", `${this.path}/orders?phase_no=${this.phaseNo}`);
      this.typed.value = "";
      this.sync();
      this.showAnswer(answer);
      say("Your orders are withdrawn.");
      await this.app.refresh();
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
      else await this.app.refresh();
    } catch (error) {
      this.ready.checked = !ready;
      this.app.fail(error);
    }
  }

  /** The service's answer: each line's status in the list, and beside the unit whose order it is. */
  showAnswer(answer) {
    for (const row of this.rows) row.status.textContent = "";
    for (const entry of answer.orders) {
      const row = this.rows.find((r) => r.line === entry.order);
      if (!row) continue;
      row.status.textContent = statusWords(entry);
      row.status.className = `unit-status status-${/^[a-z]+$/.test(entry.status) ? entry.status : "other"}`;
    }
    const list = byId("statuses");
    list.replaceChildren(...answer.orders.map((entry, i) => statusItem(entry, i)));
    list.dataset.answers = String(Number(list.dataset.answers || 0) + 1); // a new answer is shown (tests wait on it)
    byId("no-statuses").hidden = answer.orders.length > 0;
    this.answered = answer.orders;
    this.unsent(false);
    this.ready.checked = Boolean(answer.ready);
  }

  /** A suggestion clicked: it takes the place of the word the service marked in its line, in the box. */
  suggestion(event) {
    const button = event.target.closest("button[data-suggestion]");
    if (!button) return;
    const entry = this.answered[Number(button.dataset.entry)];
    if (!entry) return;
    const line = String(entry.order);
    const column = Number(entry.column) || 1;
    const word = /^[^\s,;:]+/.exec(line.slice(column - 1));
    const written = button.dataset.suggestion;
    const short = /\(([^()]+)\)$/.exec(written); // "Yakutsk (Yak)": the place's own id, as orders name it
    const fixed = line.slice(0, column - 1) + (short ? short[1] : written) + line.slice(column - 1 + (word ? word[0].length : 0));
    this.replaceLines([line], fixed);
    this.unsent(true);
    this.sync();
    this.readTyped();
    say(`${fixed} replaces ${line} in your orders: not sent yet.`);
    this.typed.focus();
  }
}
