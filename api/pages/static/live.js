// The page hears of the game's changes as they happen: a long poll of `GET /v1/games/<id>/events`, which the
// service answers as soon as what this caller may see of the game changes (a seat ready, orders sent, a
// judgement, a pause, the end), or after a while with no change. Every instance behind a balancer answers it
// from the database. An answer that says nobody may wait now (`retry_ms`) or an error is followed by a pause.

import {ApiError} from "./client.js";

const BACKOFF_MS = [1000, 2000, 5000, 10000, 30000]; // after failures in a row

export class Live {
  /** Calls `changed()` (returns a promise) whenever the game changes, for `app` (client, gameId). */
  constructor(app, changed) {
    this.app = app;
    this.changed = changed;
    this.version = "";
    this.failures = 0;
    this.running = false;
  }

  start() {
    if (this.running) return;
    this.running = true;
    this.loop();
  }

  stop() {
    this.running = false;
    if (this.abort) this.abort.abort();
  }

  async loop() {
    while (this.running) {
      this.abort = new AbortController();
      try {
        const since = this.version ? `?since=${encodeURIComponent(this.version)}` : "";
        const answer = await this.app.client.json("GET", `/v1/games/${this.app.gameId}/events${since}`,
                                                  {signal: this.abort.signal});
        this.failures = 0;
        const first = !this.version;
        this.version = answer.version;
        if (answer.changed && !first) await this.changed();
        if (answer.retry_ms) await sleep(answer.retry_ms);
      } catch (error) {
        if (!this.running) return;
        if (error instanceof ApiError && [401, 403, 404].includes(error.status)) {
          this.running = false; // the token or the game is gone: the page's next reload says so
          await this.changed();
          return;
        }
        await sleep(BACKOFF_MS[Math.min(this.failures, BACKOFF_MS.length - 1)]);
        this.failures += 1;
      }
    }
  }
}

function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
