// A seat's say in how the game ends: a draw of every survivor (DIAS), a named draw where the game allows one, a
// concession to another survivor, or no vote. Whether the votes end the game is the service's answer alone: the
// page sends the vote and shows what comes back.

import {byId, checkboxes, checked, options, say} from "./dom.js";
import {endWords} from "./scores.js";

/** A vote in words: "a draw of every survivor (A, B, C)", "a draw of A, B", "a concession to A". */
export function voteWords(vote, survivors) {
  if (!vote) return "no vote";
  if (vote.concede_to) return `a concession to ${vote.concede_to}`;
  const draw = (vote.draw || []).join(", ");
  return everySurvivor(vote, survivors) ? `a draw of every survivor (${draw})` : `a draw of ${draw}`;
}

/** Is this vote for the draw of every survivor? */
function everySurvivor(vote, survivors) {
  const draw = vote.draw || [];
  return !vote.concede_to && draw.length === survivors.length && survivors.every((p) => draw.includes(p));
}

export class VotePanel {
  /** The vote of the `app`'s seat (app: client, gameId, view, reload(), fail()). */
  constructor(app) {
    this.app = app;
    byId("vote-form").addEventListener("submit", (event) => {
      event.preventDefault();
      this.send(this.chosen());
    });
    byId("vote-withdraw").addEventListener("click", () => this.send({}));
    byId("vote-form").addEventListener("change", () => this.showChoice());
    // Choosing whom to concede to is choosing to concede.
    byId("vote-concede-to").addEventListener("change", () => { byId("vote-concede").checked = true; });
  }

  get survivors() {
    return this.app.view.seats.filter((s) => s.survivor).map((s) => s.power);
  }

  /** Show the seat's vote and the choices it has in the game view `view` (an ended game: none). */
  load(view) {
    const section = byId("votes");
    section.hidden = view.status === "ended";
    if (section.hidden) return;
    const survivors = this.survivors;
    const mine = view.seats.find((s) => s.power === view.you);
    const voting = Boolean(mine && mine.survivor);
    byId("vote-form").hidden = !voting;
    this.showVote(mine ? mine.vote : null);
    if (!voting) {
      byId("my-vote").textContent = "You have been eliminated: only the survivors vote.";
      byId("votes-help").textContent = "";
      return;
    }
    const named = view.settings.draws === "named";
    byId("vote-dias-label").textContent = `A draw of every survivor (DIAS): ${survivors.join(", ")}`;
    byId("vote-named-line").hidden = !named;
    checkboxes(byId("vote-named-powers"), "vote-power", survivors, mine.vote && mine.vote.draw || []);
    options(byId("vote-concede-to"), survivors.filter((p) => p !== view.you));
    byId("vote-concede").disabled = survivors.length < 2;
    if (mine.vote && mine.vote.concede_to) {
      byId("vote-concede").checked = true;
      byId("vote-concede-to").value = mine.vote.concede_to;
    } else if (named && mine.vote && !everySurvivor(mine.vote, survivors)) {
      byId("vote-named").checked = true;
    } else {
      byId("vote-dias").checked = true;
    }
    this.showChoice();
    const s = view.settings;
    byId("votes-help").textContent = [
      "A draw passes when every survivor votes for the same draw; a concession when every other survivor concedes"
        + " to the same power.",
      s.secret_votes ? "Votes are secret: the others never see yours, and the game master sees only who has voted."
                     : "Votes are open: everyone sees every vote.",
      s.votes_survive_phase ? "A vote stays until you change it." : "Votes are cleared when a phase is judged.",
      s.disorder_votes === "yes" ? "A seat in civil disorder counts as voting yes." : "",
    ].filter(Boolean).join(" ");
  }

  showVote(vote) {
    byId("my-vote").textContent = vote ? `Your vote: ${voteWords(vote, this.survivors)}.` : "You have not voted.";
  }

  /** The named draw's powers are asked for only when it is the choice. */
  showChoice() {
    byId("vote-named-powers").hidden = !byId("vote-named").checked || byId("vote-named-line").hidden;
  }

  /** The request's vote: DIAS, the powers picked, or the power conceded to. */
  chosen() {
    if (byId("vote-concede").checked) return {concede_to: byId("vote-concede-to").value};
    if (byId("vote-named").checked && !byId("vote-named-line").hidden) {
      return {draw: checked(byId("vote-named-powers"))};
    }
    return {draw: "dias"};
  }

  async send(vote) {
    try {
      const answer = await this.app.client.json("PUT", `/v1/games/${this.app.gameId}/vote`,
                                                {body: {...vote, phase_no: this.app.view.phase_no}});
      this.showVote(answer.vote);
      if (answer.ended) {
        say(`The game has ended: your vote made it ${endWords(answer.end)}.`);
        await this.app.reload(false);
        return;
      }
      say(answer.vote ? `Your vote is ${voteWords(answer.vote, this.survivors)}.` : "Your vote is withdrawn.");
      await this.app.refresh();
    } catch (error) {
      this.app.fail(error);
    }
  }
}

