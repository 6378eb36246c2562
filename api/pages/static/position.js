// The position as the service keeps it, shown as nested lists: the same for every game, since the page knows
// no game's rules. The picture shows it; this is what a screen reader reads.

import {byId, el} from "./dom.js";

const DEPTH = 6; // a game state nests a few levels; deeper data is shown as JSON text

function view(value, depth) {
  if (value === null || typeof value !== "object") return String(value);
  if (depth >= DEPTH) return el("code", {text: JSON.stringify(value)});
  if (Array.isArray(value)) {
    if (value.every((v) => v === null || typeof v !== "object")) return value.length ? value.join(", ") : "none";
    return el("ol", {}, value.map((v) => el("li", {}, view(v, depth + 1))));
  }
  const entries = Object.entries(value);
  if (!entries.length) return "none";
  return el("dl", {}, entries.map(([k, v]) => [el("dt", {text: k}), el("dd", {}, view(v, depth + 1))]));
}

/** Show the game view's position. */
export function showPosition(state) {
  const {variant, ...rest} = state; // the variant is in the page's heading
  byId("position-data").replaceChildren(view(rest, 0));
  byId("position").hidden = false;
}
