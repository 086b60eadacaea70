// @ts-check
/**
 * Demo agent: text helpers. SGR styling (off with NO_COLOR), terminal display width,
 * fitting and truncating to a number of cells, sanitising untrusted text for one line, and
 * POSIX quoting for display. Pure functions, no output.
 */
import { COLOR } from "./config.mjs";

/** @param {string} code @param {string} s */
const sgr = (code, s) => (COLOR ? `\x1b[${code}m${s}\x1b[0m` : s);
/** @param {string} s */ export const dim = (s) => sgr("2", s);
/** @param {string} s */ export const bold = (s) => sgr("1", s);
/** @param {string} s */ export const green = (s) => sgr("32", s);
/** @param {string} s */ export const red = (s) => sgr("31", s);
/** @param {string} s */ export const yellow = (s) => sgr("33", s);
/** @param {string} s */ export const cyan = (s) => sgr("36", s);

/**
 * Terminal cell width of one code point (a small wcwidth: controls and combining marks 0,
 * East Asian wide/fullwidth and emoji 2, everything else 1).
 * @param {number} cp
 */
function cpWidth(cp) {
  if (cp < 0x20 || (cp >= 0x7f && cp < 0xa0)) return 0;
  if (
    (cp >= 0x300 && cp <= 0x36f) ||
    (cp >= 0x200b && cp <= 0x200f) ||
    (cp >= 0x20d0 && cp <= 0x20ff) ||
    (cp >= 0xfe00 && cp <= 0xfe0f)
  )
    return 0;
  if (
    (cp >= 0x1100 && cp <= 0x115f) ||
    (cp >= 0x2e80 && cp <= 0xa4cf && cp !== 0x303f) ||
    (cp >= 0xac00 && cp <= 0xd7a3) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0xfe30 && cp <= 0xfe4f) ||
    (cp >= 0xff00 && cp <= 0xff60) ||
    (cp >= 0xffe0 && cp <= 0xffe6) ||
    (cp >= 0x1f300 && cp <= 0x1f64f) ||
    (cp >= 0x1f900 && cp <= 0x1f9ff) ||
    (cp >= 0x20000 && cp <= 0x3fffd)
  )
    return 2;
  return 1;
}

/** @param {string} s plain text (no escape sequences) */
export function strWidth(s) {
  let w = 0;
  for (const ch of s) w += cpWidth(/** @type {number} */ (ch.codePointAt(0)));
  return w;
}

/** Longest prefix of s that fits in max cells. @param {string} s @param {number} max */
export function fitStart(s, max) {
  let w = 0;
  let out = "";
  for (const ch of s) {
    const cw = cpWidth(/** @type {number} */ (ch.codePointAt(0)));
    if (w + cw > max) break;
    w += cw;
    out += ch;
  }
  return out;
}

/** Longest suffix of s that fits in max cells. @param {string} s @param {number} max */
export function fitEnd(s, max) {
  const chars = Array.from(s);
  let w = 0;
  let i = chars.length;
  while (i > 0) {
    const cw = cpWidth(/** @type {number} */ (chars[i - 1].codePointAt(0)));
    if (w + cw > max) break;
    w += cw;
    i--;
  }
  return chars.slice(i).join("");
}

/** Truncate to max cells with an ellipsis. @param {string} s @param {number} max */
export function truncate(s, max) {
  if (max <= 0) return "";
  if (strWidth(s) <= max) return s;
  return `${fitStart(s, max - 1)}…`;
}

/**
 * Make untrusted text safe to print on one line: tabs become spaces, other control
 * characters (including ESC) become U+FFFD, so nothing the user typed can move the cursor.
 * @param {string} s
 */
export function clean(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\t/g, "    ").replace(/[\x00-\x1f\x7f-\x9f]/g, "\ufffd");
}

/** POSIX shell quoting, for display only (commands are always spawned with argv). @param {string} a */
export function shq(a) {
  return /^[A-Za-z0-9_./:=@%+-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`;
}
