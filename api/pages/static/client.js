// The JSON API, the same one bots use: the token goes in the Authorization header, errors are problem+json.

/** An answer other than 2xx: its status and the API's problem (title, detail, pointer...). */
export class ApiError extends Error {
  constructor(status, problem) {
    super(problem.detail || problem.title || `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
  }

  /** The problem as one line for people. */
  get text() {
    const title = this.problem.title || `HTTP ${this.status}`;
    return this.problem.detail ? `${title}: ${this.problem.detail}` : title;
  }
}

export class Client {
  constructor(token) {
    this.token = token;
    this.clockOffset = 0; // the service's clock minus this browser's, for the countdown
  }

  /** A request; `auth: false` for the stateless endpoints, which need no token and get none; `signal` aborts it. */
  async request(method, path, {body, auth = true, signal} = {}) {
    const headers = {};
    if (auth) headers.Authorization = `Bearer ${this.token}`;
    if (body !== undefined) headers["Content-Type"] = "application/json";
    let response;
    try {
      response = await fetch(path, {
        method, headers, body: body === undefined ? undefined : JSON.stringify(body),
        cache: "no-store", credentials: "omit", referrerPolicy: "no-referrer", signal,
      });
    } catch (error) {
      if (signal && signal.aborted) throw error;
      throw new ApiError(0, {title: "No answer", detail: "the service could not be reached; try again"});
    }
    this.noteClock(response);
    if (!response.ok) {
      let problem;
      try {
        problem = await response.json();
      } catch {
        problem = {title: response.statusText || `HTTP ${response.status}`};
      }
      throw new ApiError(response.status, problem);
    }
    return response;
  }

  /** A request whose answer is JSON. */
  async json(method, path, options) {
    return (await this.request(method, path, options)).json();
  }

  /** An SVG picture as a document of its own (a stateless endpoint: no token). It is parsed by the browser's XML
   * parser as the answer of a request, never from a string, so the page's Trusted Types policy holds; its
   * elements are shown only once `board.js` has kept the ones a picture is drawn with. */
  svg(method, path, body, {auth = false} = {}) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open(method, path);
      xhr.responseType = "document";
      if (auth) xhr.setRequestHeader("Authorization", `Bearer ${this.token}`);
      if (body !== undefined) xhr.setRequestHeader("Content-Type", "application/json");
      xhr.onload = () => {
        if (xhr.status >= 200 && xhr.status < 300 && xhr.responseXML) resolve(xhr.responseXML);
        else reject(this.xhrError(xhr));
      };
      xhr.onerror = () => reject(new ApiError(0, {title: "No answer", detail: "the service could not be reached; try again"}));
      xhr.send(body === undefined ? null : JSON.stringify(body));
    });
  }

  xhrError(xhr) {
    // An error's problem+json is not a document, so it is not parsed here: its status and Retry-After say enough.
    const wait = Number(xhr.getResponseHeader("Retry-After"));
    const words = {404: "this board has no picture", 422: "this board has no picture",
                   429: "too many pictures asked for", 503: "the service is busy drawing"}[xhr.status];
    const detail = (words || `the service answered ${xhr.status}`) + (wait > 0 ? `: try again in ${wait} s` : "");
    return new ApiError(xhr.status, {title: xhr.statusText || `HTTP ${xhr.status}`, detail});
  }

  /** The service's time now, in milliseconds. */
  now() {
    return Date.now() + this.clockOffset;
  }

  noteClock(response) {
    const served = Date.parse(response.headers.get("Date") || "");
    // The Date header counts whole seconds: only a clock further off than that is corrected.
    if (!Number.isNaN(served)) this.clockOffset = Math.abs(served - Date.now()) > 2000 ? served - Date.now() : 0;
  }
}
