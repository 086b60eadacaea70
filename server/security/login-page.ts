// The login exchange's page: it stores the session key in the board origin's localStorage and
// moves on to the page asked for. Its one script is fixed and allowed by hash (LOGIN_CSP).
import { createHash } from "node:crypto";
import { SESSION_KEY_STORAGE } from "../wire/session-key";

export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * The login exchange's answer: a page that puts the session key into this origin's localStorage
 * (bound to scheme, host and port: no other local server can read it, and every tab of the board
 * shares it, also after a browser restart, as the 30-day cookie lasts) and then replaces itself
 * with the target page. Its one script is fixed (allowed by hash); the key and the target travel
 * in meta tags.
 */
const LOGIN_SCRIPT =
  `(function(){var m=function(n){return document.querySelector('meta[name="'+n+'"]').getAttribute("content")};` +
  `try{localStorage.setItem(${JSON.stringify(SESSION_KEY_STORAGE)},m("yard-session-key"))}` +
  `catch(e){document.getElementById("msg").textContent="This browser does not let the board keep its session key (site storage is blocked): allow storage for this address and open the login link again.";return}` +
  `location.replace(m("yard-next"))})()`;
export const LOGIN_CSP = `default-src 'none'; script-src 'sha256-${createHash("sha256").update(LOGIN_SCRIPT).digest("base64")}'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'`;

export function loginPage(key: string, target: string): string {
  return (
    `<!doctype html><html><head><meta charset="utf-8"><title>Switchyard</title>` +
    `<meta name="yard-session-key" content="${escapeHtml(key)}"><meta name="yard-next" content="${escapeHtml(target)}"></head>` +
    `<body style="font-family:system-ui;max-width:40rem;margin:4rem auto;line-height:1.5"><p id="msg">Logging in…</p>` +
    `<noscript><p>The board needs JavaScript.</p></noscript><script>${LOGIN_SCRIPT}</script></body></html>`
  );
}
