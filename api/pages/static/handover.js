// The game master hands a seat to a new player or a bot: the service gives the seat a new token (the old one is
// refused from that moment) and shows it once; the page makes the play link of it, as the game master's other
// links are made (this page's address, `#token=` in the fragment, which no browser sends), and keeps it nowhere.

import {byId, options, say} from "./dom.js";

export class Handover {
  /** The seat replacement of the `app`'s game master (app: client, gameId, view, reload(), fail()). */
  constructor(app) {
    this.app = app;
    byId("replace-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.replace(byId("replace-power").value, byId("replace-kind").value);
    });
    byId("handover-copy").addEventListener("click", () => this.copy());
    byId("handover-done").addEventListener("click", () => this.forget());
  }

  /** Show the seats that can be handed over in the game view `view`. */
  load(view) {
    options(byId("replace-power"), view.seats.map((s) => s.power));
  }

  async replace(power, kind) {
    if (!window.confirm(`Give ${power} a new link? Its old link stops working at once.`)) return;
    try {
      const answer = await this.app.client.json(
        "POST", `/v1/games/${this.app.gameId}/seats/${encodeURIComponent(power)}/replace`,
        {body: {phase_no: this.app.view.phase_no, kind}});
      const link = `${location.origin}${location.pathname}#token=${answer.token}`; // this page's own address
      byId("handover-label").textContent = `The new play link of ${answer.power} (${answer.kind})`;
      byId("handover-link").value = link;
      byId("handover").hidden = false;
      say(`${answer.power} has a new link, shown once below; its old link no longer works.`);
      await this.app.refresh();
      byId("handover-link").focus();
      byId("handover-link").select();
    } catch (error) {
      this.app.fail(error);
    }
  }

  async copy() {
    try {
      await navigator.clipboard.writeText(byId("handover-link").value);
      say("The link is copied.");
    } catch {
      byId("handover-link").select();
      say("This browser does not let the page copy: the link is selected, copy it with the keyboard.");
    }
  }

  forget() {
    byId("handover-link").value = "";
    byId("handover").hidden = true;
    say("The link is forgotten.");
    byId("replace-power").focus();
  }
}
