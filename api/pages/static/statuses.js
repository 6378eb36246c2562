// An order line as the service answered it: its status, the reason, where it could not be read and what it may
// have meant. The page adds nothing of its own: every word here comes from the API's answer.

import {el} from "./dom.js";

/** The order's text, the character at the column the service named marked. */
export function orderText(entry) {
  const text = String(entry.order ?? "");
  const column = Number(entry.column);
  if (!Number.isInteger(column) || column < 1 || column > text.length) return el("code", {text});
  return el("code", {}, text.slice(0, column - 1), el("mark", {text: text[column - 1]}), text.slice(column));
}

/** The status in a few words, for a unit's row. */
export function statusWords(entry) {
  const parts = [entry.status];
  if (entry.reason) parts.push(entry.reason);
  else if (entry.understood_as && entry.understood_as !== entry.order) parts.push(`read as ${entry.understood_as}`);
  return parts.join(": ");
}

/** The list item of an answered line: the order, its status, the reason, the column and the suggestions (with
 * `index`, the line's place in the answer: each suggestion a button that puts it in the line). */
export function statusItem(entry, index) {
  const kind = /^[a-z]+$/.test(entry.status) ? entry.status : "other";
  const item = el("li", {class: `status status-${kind}`}, orderText(entry), " ", el("strong", {text: entry.status}));
  if (entry.reason) item.append(`: ${entry.reason}`);
  if (entry.column) item.append(` (column ${entry.column})`);
  if (entry.understood_as && entry.understood_as !== entry.order) item.append(`; read as ${entry.understood_as}`);
  if (entry.suggestions && entry.suggestions.length) {
    const shown = (s) => (index === undefined ? el("code", {text: s})
      : el("button", {type: "button", class: "suggestion", "data-suggestion": s, "data-entry": index,
                      "aria-label": `${s}: put it in this order`, text: s}));
    item.append(el("span", {class: "suggestions"}, "Did you mean ",
                    entry.suggestions.map((s, i) => [i ? ", " : "", shown(s)]), "?"));
  }
  return item;
}

/** "3 ok, 1 unreadable": what a submission's answer holds, to announce. */
export function tally(entries) {
  const counts = new Map();
  for (const entry of entries) counts.set(entry.status, (counts.get(entry.status) || 0) + 1);
  return [...counts].map(([status, n]) => `${n} ${status}`).join(", ") || "no orders";
}
