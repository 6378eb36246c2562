// The game's pace in words, under the deadline: a pause (since when, until when at the latest, the time the
// deadline then has left), the grace period and the NMR extensions after a deadline, and whether this phase is
// in one of them. Each comes from the game view; the service moves the deadline, the page only says so.

import {byId} from "./dom.js";
import {duration} from "./countdown.js";

const at = (iso) => new Date(iso).toLocaleString();
const span = (seconds) => duration(seconds * 1000).replace(/ 0 (s|min|h)$/, ""); // "10 min", not "10 min 0 s"

/** The terms after the deadline: "then a grace of 10 min for powers that have sent no orders", extensions. */
export function deadlineTerms(view) {
  const settings = view.settings || {};
  const used = view.deadline_extended || {};
  const parts = [];
  if (used.grace) parts.push("This is the grace period: the deadline was moved on for powers that sent no orders.");
  else if (settings.grace_seconds) {
    parts.push(`Then a grace period of ${span(settings.grace_seconds)} for powers that have sent no`
               + " orders.");
  }
  const extensions = settings.nmr_extensions || {};
  if (extensions.count) {
    parts.push(`Up to ${extensions.count} extensions of ${span(extensions.seconds)} while a power that`
               + ` must act has sent nothing: ${used.extensions || 0} used.`);
  }
  return parts.join(" ");
}

/** A paused game's line: since when, when it resumes by itself, the time then left before the deadline. */
export function pauseWords(view) {
  const pause = view.pause || {};
  const parts = [`The game is paused${pause.paused_at ? ` since ${at(pause.paused_at)}` : ""}:`,
                 "orders and votes may still be sent, but no phase is judged."];
  if (pause.resumes_at) parts.push(`It resumes by itself at ${at(pause.resumes_at)} at the latest.`);
  if (pause.deadline_left_seconds !== null && pause.deadline_left_seconds !== undefined) {
    parts.push(`The deadline then has ${duration(pause.deadline_left_seconds * 1000)} left.`);
  }
  return parts.join(" ");
}

/** Show the pace of the game view `view`. */
export function showPacing(view) {
  byId("deadline-terms").textContent = view.status === "active" ? deadlineTerms(view) : "";
  const line = byId("pause-line");
  line.hidden = view.status !== "paused";
  line.textContent = line.hidden ? "" : pauseWords(view);
}
