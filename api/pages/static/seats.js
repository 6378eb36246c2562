// The players' tables: who must act and, where the service shows it (to the game master, or in a game with public
// readiness), who has sent orders and who is ready; then each seat over the game: who plays it (a player or a bot,
// handed on from which phase), civil disorder, missed orders (NMR) and its draw vote as far as the service shows
// it. Never what they ordered, nor a secret vote: the service does not say.

import {byId, el} from "./dom.js";
import {voteWords} from "./votes.js";

// What the service leaves out is a dash to the eye and "not shown" to a screen reader.
const notShown = () => [el("span", {"aria-hidden": "true", class: "hidden-value", text: "–"}),
                        el("span", {class: "visually-hidden", text: "not shown"})];
const yesNo = (value) => (value === undefined ? notShown() : value ? "yes" : "no");

/** Who plays the seat: a player or a bot, and since which phase when it was handed on. */
function playedBy(seat) {
  const holders = seat.holders || [];
  const kind = seat.kind === "bot" ? "a bot" : "a player";
  return holders.length > 1 ? `${kind} (from phase ${holders[holders.length - 1].from_phase})` : kind;
}

/** The seat's vote as the service shows it: the vote, whether it has voted (a secret vote), or not shown. */
function voteCell(seat, survivors) {
  if (!seat.survivor) return "eliminated: no vote";
  if (seat.vote !== undefined) return seat.vote ? voteWords(seat.vote, survivors) : "no vote";
  if (seat.voted !== undefined) return seat.voted ? "voted (secret)" : "not voted";
  return notShown();
}

/** Fill the tables from the game view. */
export function showSeats(view) {
  const rows = view.seats.map((seat) => el("tr", {},
    el("th", {scope: "row", text: seat.power}), el("td", {text: seat.label}), el("td", {}, yesNo(seat.must_act)),
    el("td", {}, yesNo(seat.submitted)), el("td", {}, yesNo(seat.ready))));
  byId("seats").tBodies[0].replaceChildren(...rows);
  const survivors = view.seats.filter((s) => s.survivor).map((s) => s.power);
  const standing = view.seats.map((seat) => el("tr", {class: seat.civil_disorder ? "disorder" : null},
    el("th", {scope: "row", text: seat.power}), el("td", {text: playedBy(seat)}),
    el("td", {text: seat.civil_disorder ? "yes" : "no"}),
    el("td", {text: String(seat.missed ?? 0)}), el("td", {}, voteCell(seat, survivors))));
  byId("standing").tBodies[0].replaceChildren(...standing);
  byId("seats-section").hidden = false;
}
