// The game master's controls: judge the phase, move its deadline, send the game's own steps. Who has sent orders
// and who is ready is the players' table (seats.js): the service never shows the game master the orders.

import {ApiError} from "./client.js";
import {byId, say, warn} from "./dom.js";
import {statusItem, tally} from "./statuses.js";

export class MasterPanel {
  /** The panel of the `app`'s game master (app: client, gameId, view, reload(), refresh(), fail()). */
  constructor(app) {
    this.app = app;
    byId("judge").addEventListener("click", () => this.judge());
    byId("deadline-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.moveDeadline(new Date(byId("deadline-at").value).toISOString()); // the browser asks for a value first
    });
    for (const button of document.querySelectorAll("#deadline-form [data-add]")) {
      button.addEventListener("click", () => this.later(Number(button.dataset.add)));
    }
    byId("deadline-none").addEventListener("click", () => this.moveDeadline(null));
    byId("steps-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.sendSteps();
    });
  }

  get path() {
    return `/v1/games/${this.app.gameId}`;
  }

  /** Show the game master's controls for the game view `view`. */
  async load(view) {
    byId("judge").textContent = `Judge ${view.phase} now`;
    byId("deadline-at").value = view.deadline ? localInput(new Date(view.deadline)) : "";
    const own = await this.app.client.json("GET", `${this.path}/orders`);
    byId("steps").value = own.orders.map((o) => o.order).join("\n");
    byId("step-statuses").replaceChildren(...own.orders.map(statusItem));
  }

  async judge() {
    const view = this.app.view;
    // Judging cannot be undone: the browser's own dialog asks once more (keyboard and screen readers know it).
    if (!window.confirm(`Judge ${view.phase} now, with the orders sent so far?`)) return;
    try {
      const judged = await this.app.client.json("POST", `${this.path}/adjudicate`, {body: {phase_no: view.phase_no}});
      say(`${judged.phase} (phase ${judged.phase_no}) is judged; next: ${judged.next_phase} (phase `
        + `${judged.phase_no + 1}).`);
      await this.app.reload(true);
    } catch (error) {
      this.app.fail(error);
    }
  }

  /** The deadline `seconds` after the current one (or after now, when there is none or it has passed). */
  later(seconds) {
    const current = this.app.view.deadline ? Date.parse(this.app.view.deadline) : NaN;
    const base = Number.isNaN(current) ? this.app.client.now() : Math.max(current, this.app.client.now());
    this.moveDeadline(new Date(base + seconds * 1000).toISOString());
  }

  async moveDeadline(at) {
    try {
      const moved = await this.app.client.json("PUT", `${this.path}/deadline`,
                                               {body: {at, phase_no: this.app.view.phase_no}});
      say(moved.deadline ? `The deadline of ${moved.phase} is now ${new Date(moved.deadline).toLocaleString()}.`
                         : `${moved.phase} has no deadline now.`);
      byId("deadline-at").value = moved.deadline ? localInput(new Date(moved.deadline)) : "";
      await this.app.refresh();
    } catch (error) {
      if (error instanceof ApiError && error.status === 400 && error.problem.pointer === "/at") {
        // The API's words name its own path; a game master here has the button.
        warn(`That deadline was refused: it must be in the future and at most a year away. To judge the phase now, `
          + `use the “${byId("judge").textContent}” button.`);
        return;
      }
      this.app.fail(error);
    }
  }

  async sendSteps() {
    const lines = byId("steps").value.split("\n").map((t) => t.trim()).filter(Boolean);
    try {
      const answer = await this.app.client.json("PUT", `${this.path}/orders`,
                                                {body: {orders: lines, phase_no: this.app.view.phase_no}});
      byId("step-statuses").replaceChildren(...answer.orders.map(statusItem));
      say(`Steps sent: ${tally(answer.orders)}.`);
    } catch (error) {
      this.app.fail(error);
    }
  }
}

/** A time as a datetime-local input's value (the browser's own time zone). */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, "0");
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:`
    + pad(date.getMinutes());
}
