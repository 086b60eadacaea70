// The browser session's second half, shared by the server and the browser's clients (constants
// only: the browser bundles this file). A session is a cookie (which every port of the host
// receives) plus a key that is never a cookie: the login page writes it into the board origin's
// localStorage, and the board's own tRPC client and socket send it with every call.

/** The header the tRPC client (and any same-origin script of the board) sends the key in. */
export const SESSION_KEY_HEADER = "x-yard-session-key";
/** The socket.io handshake's query parameter for it (a browser WebSocket cannot set headers). */
export const SESSION_KEY_QUERY = "yardSessionKey";
/** Where the login page leaves it: localStorage of the board's origin (scheme, host and port). */
export const SESSION_KEY_STORAGE = "switchyard.sessionKey";
