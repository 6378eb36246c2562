// The game master's say over the game's course: pause it and resume it (the settings cap how long and how
// often), and declare its end (a draw of the survivors picked, a concession, or stopped). Each write names the
// phase shown; what the service refuses is said in its own words.

import {byId, checkboxes, checked, options, say} from "./dom.js";
import {endWords} from "./scores.js";

export class Declare {
  /** The controls of the `app`'s game master (app: client, gameId, view, reload(), fail()). */
  constructor(app) {
    this.app = app;
    byId("pause").addEventListener("click", () => this.pause("pause"));
    byId("resume").addEventListener("click", () => this.pause("resume"));
    byId("end-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.end();
    });
    byId("end-form").addEventListener("change", () => this.showChoice());
    byId("end-concede-to").addEventListener("change", () => { byId("end-concession").checked = true; });
  }

  get path() {
    return `/v1/games/${this.app.gameId}`;
  }

  /** Show the controls for the game view `view`. */
  load(view) {
    const paused = view.status === "paused";
    byId("pause").hidden = paused;
    byId("resume").hidden = !paused;
    const pause = view.pause || {};
    const left = Math.max(0, (pause.pauses_allowed ?? 0) - (pause.pauses ?? 0));
    byId("pause").disabled = left === 0;
    byId("pauses-left").textContent = `Pauses used: ${pause.pauses ?? 0} of ${pause.pauses_allowed ?? 0}`
      + (left || paused ? "." : ": no pause left.");
    const survivors = view.seats.filter((s) => s.survivor).map((s) => s.power);
    checkboxes(byId("end-powers"), "end-power", survivors, checked(byId("end-powers")));
    options(byId("end-concede-to"), survivors);
    this.showChoice();
  }

  showChoice() {
    byId("end-powers").hidden = !byId("end-draw").checked;
  }

  async pause(what) {
    try {
      const answer = await this.app.client.json("POST", `${this.path}/${what}`,
                                                {body: {phase_no: this.app.view.phase_no}});
      say(answer.status === "paused" ? "The game is paused: its deadline is held."
        : `The game goes on${answer.deadline ? `: the deadline is ${new Date(answer.deadline).toLocaleString()}`
                                              : ""}.`);
      await this.app.reload(false);
    } catch (error) {
      this.app.fail(error);
    }
  }

  /** The end the form describes, as the request's body. */
  chosen() {
    if (byId("end-concession").checked) return {kind: "concession", powers: [byId("end-concede-to").value]};
    if (byId("end-stopped").checked) return {kind: "stopped"};
    const powers = checked(byId("end-powers"));
    return powers.length ? {kind: "draw", powers} : {kind: "draw"};
  }

  async end() {
    const body = this.chosen();
    const what = body.kind === "draw" && !body.powers ? "a draw of every survivor" : endWords(body);
    // An end cannot be undone: the browser's own dialog asks once more (keyboard and screen readers know it).
    if (!window.confirm(`End the game now: ${what}? It cannot be undone.`)) return;
    try {
      const answer = await this.app.client.json("POST", `${this.path}/end`,
                                                {body: {...body, phase_no: this.app.view.phase_no}});
      say(`The game has ended: ${endWords(answer.end)}.`);
      await this.app.reload(false);
    } catch (error) {
      this.app.fail(error);
    }
  }
}
