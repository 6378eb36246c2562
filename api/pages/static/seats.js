// The players' table: who must act and, where the service shows it (to the game master, or in a game with public
// readiness), who has sent orders and who is ready. Never what they ordered: the service does not say.

import {byId, el} from "./dom.js";

// What the service leaves out is a dash to the eye and "not shown" to a screen reader.
const yesNo = (value) => (value === undefined
  ? [el("span", {"aria-hidden": "true", class: "hidden-value", text: "–"}), el("span", {class: "visually-hidden",
                                                                                          text: "not shown"})]
  : value ? "yes" : "no");

/** Fill the table from the game view. */
export function showSeats(view) {
  const rows = view.seats.map((seat) => el("tr", {},
    el("th", {scope: "row", text: seat.power}), el("td", {text: seat.label}), el("td", {}, yesNo(seat.must_act)),
    el("td", {}, yesNo(seat.submitted)), el("td", {}, yesNo(seat.ready))));
  byId("seats").tBodies[0].replaceChildren(...rows);
  byId("seats-section").hidden = false;
}
