// The token arrives in the URL's fragment (`#token=...`), which browsers never send to a server. It is moved to
// this tab's session storage and taken out of the address bar and the history at once.

const key = (gameId) => `adjudicator-token:${gameId}`;

/** The caller's token for this game: from the link just opened, else the one this tab kept. */
export function takeToken(gameId) {
  const fromLink = new URLSearchParams(location.hash.slice(1)).get("token");
  if (fromLink) {
    sessionStorage.setItem(key(gameId), fromLink.trim());
    history.replaceState(null, "", location.pathname + location.search);
  }
  return sessionStorage.getItem(key(gameId));
}

/** Keep a token typed or pasted by the player. */
export function keepToken(gameId, token) {
  sessionStorage.setItem(key(gameId), token.trim());
}

/** Forget this tab's token (it was refused). */
export function forgetToken(gameId) {
  sessionStorage.removeItem(key(gameId));
}
