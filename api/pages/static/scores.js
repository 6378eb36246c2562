// How the game ended (its kind, the powers it names, who or what ended it) and the scores: the end's, or while the
// game goes on, the scores "if the game ended now" as the service computes them (a draw of every survivor).
// The page computes no score: every number here is the API's.

import {ApiError} from "./client.js";
import {byId, el} from "./dom.js";

const BY = {rules: "reached by the rules", votes: "agreed by the survivors' votes",
            "game master": "declared by the game master", "civil disorder": "every seat was in civil disorder",
            "year limit": "the game's year limit was reached"};

/** An end in a few words: "a draw of A, B", "a concession to A", "a solo by A", "stopped", "abandoned". */
export function endWords(end) {
  const named = (end.powers || []).join(", ");
  return {solo: `a solo by ${named}`, draw: `a draw of ${named}`, concession: `a concession to ${named}`,
          abandoned: "abandoned", stopped: "stopped"}[end.kind] || String(end.kind);
}

/** The end in a sentence: what, who ended it, after how many phases, when. */
export function endSentence(end) {
  const by = BY[end.by] || (end.by ? `by ${end.by}` : "");
  const when = end.at ? `, ${new Date(end.at).toLocaleString()}` : "";
  const phases = Number.isInteger(end.phase_no) ? ` after ${end.phase_no} judged phases` : "";
  return `The game ended: ${endWords(end)}${by ? ` (${by})` : ""}${phases}${when}.`;
}

export class Scores {
  /** The scores of the `app`'s game (app: client, gameId). */
  constructor(app) {
    this.app = app;
  }

  /** Show the end and its scores, or the scores if the game ended now. */
  async load(view) {
    let scores, record, caption;
    if (view.end) {
      ({scores, record} = view.end);
      caption = `The final scores (${view.end.scoring || "the game's own result"})`;
    } else {
      let answer;
      try {
        answer = await this.app.client.json("GET", `/v1/games/${this.app.gameId}/scores`);
      } catch (error) {
        // A game the service cannot score now says why; it is no fault of the page's.
        if (!(error instanceof ApiError) || ![400, 422].includes(error.status)) throw error;
        answer = {scores: {}, system: `not scored: ${error.problem.detail || error.problem.title}`};
      }
      ({scores} = answer);
      record = answer.if_ended_now;
      caption = `The scores if the game ended now as a draw of every survivor (${answer.system})`;
    }
    byId("scores-h").textContent = view.end ? "How the game ended" : "Scores if the game ended now";
    byId("end-words").hidden = !view.end;
    byId("end-words").textContent = view.end ? endSentence(view.end) : "";
    byId("scores-caption").textContent = caption;
    const centres = record && record.centres && typeof record.centres === "object" ? record.centres : null;
    byId("scores-centres-h").hidden = !centres;
    const rows = Object.entries(scores || {}).map(([power, score]) => el("tr", {},
      el("th", {scope: "row", text: power}),
      centres ? el("td", {text: String(centres[power] ?? 0)}) : null,
      el("td", {text: String(score)})));
    byId("scores").tBodies[0].replaceChildren(...rows);
    byId("scores-section").hidden = false;
  }
}
