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
import {PictureViewer} from "./picture.js";
import {showPacing} from "./pacing.js";
import {showPosition} from "./position.js";
import {endWords, Scores} from "./scores.js";
import {showSeats} from "./seats.js";
import {forgetToken, keepToken, takeToken} from "./token.js";
import {VotePanel} from "./votes.js";

const POLL_MS = 15000; // how often an open page asks whether the phase has moved on
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
    this.reload(true).then(() => {
      this.timer ??= setInterval(() => this.poll(), POLL_MS);
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
    warn(null);
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
    if (ended) byId("board").before(byId("scores-section")); // how it ended comes first
    showSeats(view);
    showPosition(view.state);
    if (master && !ended) {
      this.declare.load(view);
      this.handover.load(view);
    }
    if (!master) this.votes.load(view);
    if (!master && ended) this.panel.clear();
    // Words first, pictures after: drawing takes the service longest, and the orders should not wait for it.
    await this.settle([ended ? null : this.panel.load(view), this.phases.load(openNewest), this.scores.load(view)]);
    await this.settle([this.showBoard(view), this.phases.pictures()]);
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

  async showBoard(view) {
    byId("board").hidden = false;
    this.board ??= new PictureViewer(byId("board-picture"), "The board");
    // The current position is drawn by the stateless endpoint from the state the game view gave.
    await this.board.show(
      () => this.client.request("POST", "/v1/render", {body: {state: view.state, format: "svg"}, auth: false})
        .then((r) => r.blob()),
      `The board at ${view.phase}`);
  }

  /** Has the game moved on? Then show it again; otherwise refresh who is ready and the deadline. */
  async poll() {
    if (!this.view || document.hidden) return;
    await this.refresh();
  }

  async refresh() {
    try {
      const view = await this.client.json("GET", `/v1/games/${this.gameId}`);
      if (view.phase_no !== this.view.phase_no || view.status !== this.view.status) {
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
      this.fail(error);
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
