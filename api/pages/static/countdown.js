// The deadline and the time left, by the service's clock. When it passes, the page asks the service again:
// the first request after a deadline has the phase judged.

import {byId} from "./dom.js";

// The service states a deadline to the second, cut down: the real one may be up to a second later, so the page
// asks a moment after the stated time (the players see the stated one).
const GRACE_MS = 1500;

export class Countdown {
  constructor(client, onExpired) {
    this.client = client;
    this.onExpired = onExpired;
    this.at = null;
    setInterval(() => this.tick(), 1000);
  }

  /** Show the deadline `iso` (null: none). */
  set(iso) {
    const at = iso ? Date.parse(iso) : null;
    // Asked once a deadline passes: a phase the service cannot judge then waits for the game master, and the
    // page's poll goes on at its own pace.
    if (at !== this.at) this.expired = false;
    this.at = at;
    byId("deadline-line").hidden = this.at === null;
    const time = byId("deadline");
    time.dateTime = iso || "";
    time.textContent = iso ? new Date(iso).toLocaleString() : "";
    this.tick();
  }

  tick() {
    if (this.at === null) return;
    const left = this.at - this.client.now();
    byId("countdown").textContent = left > 0 ? `(${duration(left)} left)` : "(passed: the phase is being judged)";
    if (left <= -GRACE_MS && !this.expired) {
      this.expired = true;
      this.onExpired();
    }
  }
}

/** "2 d 3 h", "3 h 4 min", "4 min 5 s", "5 s". */
export function duration(ms) {
  const s = Math.ceil(ms / 1000);
  const [d, h, m] = [Math.floor(s / 86400), Math.floor(s / 3600) % 24, Math.floor(s / 60) % 60];
  if (d) return `${d} d ${h} h`;
  if (h) return `${h} h ${m} min`;
  if (m) return `${m} min ${s % 60} s`;
  return `${s} s`;
}
