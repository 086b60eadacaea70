// @ts-check
/**
 * Demo agent: the keyboard. Raw stdin bytes become keys (bracketed pastes, escape sequences,
 * bursts of several keys in one read), and keys edit the composer, submit it (Enter on its
 * own), answer a permission question (y/n), or quit (Ctrl-C twice, Ctrl-D on empty input).
 */
import { StringDecoder } from "node:string_decoder";
import { CTRL_C_WINDOW_MS, ESC_FLUSH_MS, PASTE_END, PASTE_START } from "./config.mjs";
import { shutdown } from "./exit.mjs";
import { exiting, redraw, ui } from "./screen.mjs";
import { answerAsk } from "./turn.mjs";

/**
 * @typedef {{ t: "char", ch: string }
 *   | { t: "enter" } | { t: "newline" } | { t: "backspace" }
 *   | { t: "ctrl-c" } | { t: "ctrl-d" }
 *   | { t: "paste", text: string }} Key
 */

const input = {
  decoder: new StringDecoder("utf8"),
  pending: "",
  inPaste: false,
  pasteBuf: "",
  /** @type {NodeJS.Timeout | null} */
  flushTimer: null,
};

/**
 * Turn decoded text into keys. Incomplete escape sequences and a partial paste terminator
 * stay in input.pending for the next chunk.
 * @param {string} text
 * @returns {Key[]}
 */
function tokenize(text) {
  /** @type {Key[]} */
  const keys = [];
  let i = 0;
  const n = text.length;
  while (i < n) {
    if (input.inPaste) {
      const end = text.indexOf(PASTE_END, i);
      if (end >= 0) {
        input.pasteBuf += text.slice(i, end);
        keys.push({ t: "paste", text: input.pasteBuf });
        input.pasteBuf = "";
        input.inPaste = false;
        i = end + PASTE_END.length;
        continue;
      }
      // keep a possible partial terminator for the next chunk
      let keep = 0;
      for (let k = Math.min(PASTE_END.length - 1, n - i); k > 0; k--) {
        if (PASTE_END.startsWith(text.slice(n - k))) {
          keep = k;
          break;
        }
      }
      input.pasteBuf += text.slice(i, n - keep);
      input.pending = text.slice(n - keep);
      return keys;
    }
    const c = text[i];
    if (c === "\x1b") {
      if (i + 1 >= n) {
        input.pending = text.slice(i);
        return keys;
      }
      const next = text[i + 1];
      if (next === "[") {
        let j = i + 2;
        while (j < n && text.charCodeAt(j) >= 0x20 && text.charCodeAt(j) <= 0x3f) j++;
        if (j >= n) {
          input.pending = text.slice(i);
          return keys;
        }
        const seq = text.slice(i, j + 1);
        i = j + 1;
        if (seq === PASTE_START) {
          input.inPaste = true;
          input.pasteBuf = "";
        }
        // other CSI sequences (arrows, function keys, focus events) are ignored
        continue;
      }
      if (next === "O") {
        if (i + 2 >= n) {
          input.pending = text.slice(i);
          return keys;
        }
        i += 3; // SS3 key (F1-F4, arrows in application mode): ignored
        continue;
      }
      i += 2; // Alt+key: ignored
      continue;
    }
    if (c === "\r") {
      keys.push({ t: "enter" });
      i += text[i + 1] === "\n" ? 2 : 1;
      continue;
    }
    if (c === "\n") keys.push({ t: "newline" });
    else if (c === "\x7f" || c === "\b") keys.push({ t: "backspace" });
    else if (c === "\x03") keys.push({ t: "ctrl-c" });
    else if (c === "\x04") keys.push({ t: "ctrl-d" });
    else if (c === "\t") keys.push({ t: "char", ch: " " });
    else if (c.charCodeAt(0) >= 0x20) {
      // keep surrogate pairs together
      const cp = /** @type {number} */ (text.codePointAt(i));
      const ch = String.fromCodePoint(cp);
      keys.push({ t: "char", ch });
      i += ch.length;
      continue;
    }
    i++;
  }
  return keys;
}

/** @param {string} s */
function normalizePaste(s) {
  // eslint-disable-next-line no-control-regex
  return s.replace(/\r\n?/g, "\n").replace(/[\x00-\x08\x0b-\x1f\x7f]/g, "");
}

/**
 * The stdin 'data' listener. Submitted prompts go to onSubmit (the turn queue).
 * @param {(prompt: string) => void} onSubmit
 * @returns {(chunk: Buffer | string) => void}
 */
export function createInputHandler(onSubmit) {
  function submit() {
    const prompt = ui.composer;
    if (prompt.trim() === "") return;
    ui.composer = "";
    onSubmit(prompt);
  }

  /** @param {Key} key @param {boolean} burst several keys arrived in one read: a paste */
  function handleKey(key, burst) {
    if (key.t === "ctrl-c") {
      if (ui.ctrlCArmed) {
        void shutdown(0, "prompt_input_exit");
        return;
      }
      ui.composer = "";
      ui.ctrlCArmed = true;
      if (ui.ctrlCTimer) clearTimeout(ui.ctrlCTimer);
      ui.ctrlCTimer = setTimeout(() => {
        ui.ctrlCArmed = false;
        redraw();
      }, CTRL_C_WINDOW_MS);
      return;
    }
    if (ui.ctrlCArmed) {
      ui.ctrlCArmed = false;
      if (ui.ctrlCTimer) clearTimeout(ui.ctrlCTimer);
    }
    if (key.t === "ctrl-d") {
      if (ui.composer === "") void shutdown(0, "prompt_input_exit");
      return;
    }
    if (ui.mode === "asking") {
      if (key.t === "char" && /^[yYnN]$/.test(key.ch)) {
        answerAsk(key.ch.toLowerCase() === "y");
      } else if (key.t === "paste") {
        ui.composer += normalizePaste(key.text);
      }
      return; // everything else is dropped while the permission question is open
    }
    switch (key.t) {
      case "char":
        ui.composer += key.ch;
        break;
      case "paste":
        ui.composer += normalizePaste(key.text);
        break;
      case "newline":
        ui.composer += "\n";
        break;
      case "backspace": {
        const chars = Array.from(ui.composer);
        chars.pop();
        ui.composer = chars.join("");
        break;
      }
      case "enter":
        // Enter submits only when it arrives on its own; inside a burst it is a newline
        if (burst) ui.composer += "\n";
        else submit();
        break;
    }
  }

  return function onData(chunk) {
    if (exiting()) return;
    if (input.flushTimer) {
      clearTimeout(input.flushTimer);
      input.flushTimer = null;
    }
    const text = input.pending + (typeof chunk === "string" ? chunk : input.decoder.write(chunk));
    input.pending = "";
    const keys = tokenize(text);
    const burst = keys.length > 1;
    for (const k of keys) {
      if (exiting()) return;
      handleKey(k, burst);
    }
    if (input.pending && !input.inPaste) {
      // a lone ESC (or a cut-off sequence) that never completes: drop it
      input.flushTimer = setTimeout(() => {
        input.pending = "";
        input.flushTimer = null;
      }, ESC_FLUSH_MS);
    }
    if (keys.length > 0 && !exiting()) redraw();
  };
}
