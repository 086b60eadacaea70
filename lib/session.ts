// The browser session's key (server/wire/session-key.ts): the login page left it in this
// origin's localStorage; the tRPC client sends it as a header and the socket in its handshake.
// Read at every use, so a login in another tab (which rotates the session) reaches this one too.
import { SESSION_KEY_HEADER, SESSION_KEY_QUERY, SESSION_KEY_STORAGE } from "../server/wire/session-key";

function sessionKey(): string | null {
  try {
    return typeof window === "undefined" ? null : window.localStorage.getItem(SESSION_KEY_STORAGE);
  } catch {
    return null; // storage blocked: the server answers UNAUTHORIZED with what to do
  }
}

/** Headers for a same-origin API call. */
export function sessionHeaders(): Record<string, string> {
  const key = sessionKey();
  return key ? { [SESSION_KEY_HEADER]: key } : {};
}

/** The socket.io handshake query; a getter, so every (re)connection reads the current key. */
export function sessionQuery(): Record<string, string> {
  return {
    get [SESSION_KEY_QUERY]() {
      return sessionKey() ?? "";
    },
  };
}
