// The play page of a hosted game: a thin client of the JSON API. Everything it shows comes from the API, and
// everything it does is an API call with the caller's token; it holds no rule of any game.

import {ApiError, Client} from "./client.js";
import {Countdown} from "./countdown.js";
import {byId, say, warn} from "./dom.js";
import {Declare} from "./declare.js";
import {Handover} from "./handover.js";
import {MasterPanel} from "./master.js";
import {OrdersPanel} from "./orders.js";
import {Phases} from "./phases.js";
import {BoardView} from "./board.js";
import {Live} from "./live.js";
import {Picker} from "./picker.js";
import {showPacing} from "./pacing.js";
import {showPosition} from "./position.js";
import {endWords, Scores} from "./scores.js";
import {showSeats} from "./seats.js";
import {forgetToken, keepToken, takeToken} from "./token.js";
import {VotePanel} from "./votes.js";

const POLL_MS = 60000; // how often an open page asks anyway (changes arrive by the long poll, `live.js`)
const DRAW_WAIT_MS = 700; // the pending orders are drawn once the player pauses this long
const SECTIONS = ["board", "orders", "votes", "master", "seats-section", "scores-section", "position", "phases"];

class App {
  constructor() {
    this.gameId = document.body.dataset.game;
    this.view = null;
    this.client = null;
    this.panel = null;
  }

  start() {
    byId("login-form").addEventListener("submit", (event) => {
      event.preventDefault();
      keepToken(this.gameId, byId("login-token").value);
      byId("login-token").value = "";
      this.open();
    });
    // Another play link opened in this tab: the page is built for one caller, so it starts again as the new one.
    window.addEventListener("hashchange", () => {
      if (new URLSearchParams(location.hash.slice(1)).has("token")) {
        takeToken(this.gameId);
        location.reload();
      }
    });
    this.open();
  }

  open() {
    const token = takeToken(this.gameId);
    if (!token) {
      this.login("Open the link your game master or bot gave you (it ends with #token=…), or paste the token here.");
      return;
    }
    this.client = new Client(token);
    this.countdown ??= new Countdown({now: () => this.client.now()}, () => this.poll());
    this.live ??= new Live(this, () => this.refresh());
    this.reload(true).then(() => {
      this.timer ??= setInterval(() => this.poll(), POLL_MS);
      if (this.view) this.live.start();
    });
  }

  login(why) {
    byId("login").hidden = false;
    byId("login-why").textContent = why;
    byId("summary").textContent = "No game shown yet.";
    for (const id of SECTIONS) byId(id).hidden = true;
    byId("login-token").focus();
  }

  /** Ask for the whole game again; `openNewest` opens the latest judged phase's report. */
  async reload(openNewest) {
    let view;
    try {
      view = await this.client.json("GET", `/v1/games/${this.gameId}`);
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
        forgetToken(this.gameId);
        this.login(`${error.text}. Open the link you were given again, or paste the token here.`);
      } else {
        this.fail(error);
      }
      return;
    }
    byId("login").hidden = true;
    const before = this.view;
    const unsent = before && this.panel instanceof OrdersPanel && !byId("unsent").hidden
      && before.phase_no !== view.phase_no ? this.panel.boxLines() : [];
    warn(unsent.length ? `${before.phase} was judged before these orders were sent, so they were not: `
      + `${unsent.join("; ")}. The lists are now those of ${view.phase}.` : null);
    this.view = view;
    this.showHeader(view);
    const master = !view.seats.some((seat) => seat.power === view.you);
    const ended = view.status === "ended";
    if (master) {
      this.panel ??= new MasterPanel(this);
      this.declare ??= new Declare(this);
      this.handover ??= new Handover(this);
    } else {
      this.panel ??= new OrdersPanel(this);
      this.votes ??= new VotePanel(this);
    }
    this.phases ??= new Phases(this);
    this.scores ??= new Scores(this);
    // An ended game has nothing left to send: its controls go, its end, scores and phases stay readable. A paused
    // game takes orders, votes and steps, but no judgement and no deadline until it is resumed.
    byId(master ? "master" : "orders").hidden = ended;
    for (const id of ["judge-line", "deadline-form"]) byId(id).hidden = view.status !== "active";
    for (const id of ["orders-form", "ready-line", "steps-form"]) byId(id).hidden = ended;
    const [skip, words] = ended ? ["#scores-section", "Skip to how the game ended"]
      : master ? ["#master", "Skip to the game master's controls"] : ["#orders", "Skip to your orders"];
    byId("skip").href = skip;
    byId("skip").textContent = words;
    byId("this-phase").hidden = ended; // who is ready for a phase that will never be judged: nothing to say
    if (ended) byId("table").before(byId("scores-section")); // how it ended comes first
    showSeats(view);
    showPosition(view.state);
    if (master && !ended) {
      this.declare.load(view);
      this.handover.load(view);
    }
    if (!master) this.votes.load(view);
    if (!master && ended) this.panel.clear();
    this.showGuide(view);
    // Words first, pictures after: drawing takes the service longest, and the orders should not wait for it.
    byId("orders-form").inert = false;
    this.drawn = null;
    await this.settle([ended ? null : this.panel.load(view), this.phases.load(openNewest), this.scores.load(view)]);
    this.picker ??= new Picker(this.panel instanceof OrdersPanel ? this.panel : null, byId("picker"));
    this.picker.load(!master && !ended ? this.panel.parts : {}, view.you, view.state);
    await this.settle([this.showBoard(view), this.phases.pictures()]);
    if (!master && !ended) this.ordersChanged(this.panel.drawnLines()); // the orders sent before, drawn pending
    document.body.dataset.loaded = view.phase_no; // the phase shown, for tests and for user styles
  }

  async settle(steps) {
    for (const result of await Promise.allSettled(steps)) {
      if (result.status === "rejected") this.fail(result.reason);
    }
  }

  showHeader(view) {
    document.title = `${view.name}: ${view.phase}`;
    byId("title").textContent = view.name;
    const who = view.seats.some((s) => s.power === view.you) ? `You play ${view.you}` : "You are the game master";
    const state = {active: view.phase, paused: `${view.phase}, paused`}[view.status]
      ?? `${view.status} at ${view.phase}`;
    const end = view.end ? ` It ended: ${endWords(view.end)}.` : "";
    byId("summary").textContent = `${who}. ${view.variant}: ${state} (phase ${view.phase_no}).${end}`;
    this.countdown.set(view.status === "active" ? view.deadline : null);
    showPacing(view);
  }

  /** The link to the game's order syntax (a players' guide the service serves). */
  showGuide(view) {
    byId("guide").href = `/play/orders/${encodeURIComponent(view.variant)}`;
    byId("guide").textContent = `How to write orders in ${view.variant}`;
    byId("guide-line").hidden = false;
  }

  /** The current position (with the seat's pending orders, `lines`), drawn by the stateless endpoint from the
   * state the game view gave, by the same picture code as a judged phase's, the orders marked as pending. */
  async showBoard(view, lines = []) {
    byId("board").hidden = false;
    this.board ??= new BoardView(byId("board-picture"), "The board", {onClick: (hit) => this.picker.click(hit)});
    const body = {state: view.state, format: "svg"};
    if (lines.length) {
      body.results = {orders: lines.map((line) => ({power: view.you, order: line, understood_as: line,
                                                     status: "default"}))};
    }
    this.drawn = lines.join("\n");
    await this.board.show(() => this.client.svg("POST", "/v1/render", body),
                          lines.length ? `The board at ${view.phase}, with your orders not judged yet`
                            : `The board at ${view.phase}`);
    if (this.board.svg) this.board.svg.classList.toggle("pending", lines.length > 0);
    byId("board-pending").hidden = !lines.length;
    this.picker.attach(this.board);
  }

  /** The seat's orders changed (typed, picked or clicked): draw them on the board once the player pauses. */
  ordersChanged(lines) {
    if (!this.view || !this.board || !this.picker || !this.picker.active) return;
    clearTimeout(this.drawTimer);
    const view = this.view;
    this.drawTimer = setTimeout(() => {
      if (this.view !== view || this.drawn === lines.join("\n")) return;
      this.showBoard(view, lines).catch((error) => this.fail(error));
    }, DRAW_WAIT_MS);
  }

  /** Has the game moved on? Then show it again; otherwise refresh who is ready and the deadline. */
  async poll() {
    if (!this.view || document.hidden) return;
    await this.refresh();
  }

  async refresh() {
    if (!this.view) return;
    try {
      const view = await this.client.json("GET", `/v1/games/${this.gameId}`);
      if (view.phase_no !== this.view.phase_no || view.status !== this.view.status) {
        byId("orders-form").inert = true; // no order for the judged phase goes out meanwhile
        say(view.phase_no !== this.view.phase_no ? `The phase was judged: now ${view.phase}.`
          : {paused: "The game is paused.", active: "The game goes on.",
             ended: `The game has ended: ${view.end ? endWords(view.end) : "over"}.`}[view.status] || view.status);
        await this.reload(true);
        return;
      }
      this.view = view;
      this.showHeader(view);
      showSeats(view);
    } catch (error) {
      if (error instanceof ApiError && [401, 403, 404].includes(error.status)) await this.reload(false);
      else this.fail(error);
    }
  }

  /** Show an error the API (or the page) gave; a phase that moved on is shown again. */
  fail(error) {
    const text = error instanceof ApiError ? error.text : `Something went wrong: ${error.message}`;
    if (error instanceof ApiError && error.status === 409) this.reload(true).then(() => warn(text));
    else warn(text);
  }
}

new App().start();
