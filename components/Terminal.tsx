"use client";
// A live pane in xterm.js: attaches over socket.io (lib/socket.ts), paints the server's snapshot
// (scrollback, modes, alternate screen), then streams output; keystrokes and fitted sizes flow
// back. Follows the light/dark class on <html>; its text stays readable by assistive technology
// (screen-reader mode). xterm is loaded in the browser only.
import "@xterm/xterm/css/xterm.css";
import type { FitAddon } from "@xterm/addon-fit";
import type { ITheme, Terminal as XTerm } from "@xterm/xterm";
import { forwardRef, useEffect, useImperativeHandle, useRef } from "react";
import { attachPane, type PaneInfo, type PaneSnapshot, type SocketError } from "../lib/socket";

// GitHub's terminal palettes (Primer light / dark).
const LIGHT_THEME: ITheme = {
  background: "#ffffff",
  foreground: "#1f2328",
  cursor: "#1f2328",
  cursorAccent: "#ffffff",
  selectionBackground: "#0969da33",
  black: "#24292f",
  red: "#cf222e",
  green: "#116329",
  yellow: "#4d2d00",
  blue: "#0969da",
  magenta: "#8250df",
  cyan: "#1b7c83",
  white: "#6e7781",
  brightBlack: "#57606a",
  brightRed: "#a40e26",
  brightGreen: "#1a7f37",
  brightYellow: "#633c01",
  brightBlue: "#218bff",
  brightMagenta: "#a475f9",
  brightCyan: "#3192aa",
  brightWhite: "#8c959f",
};

const DARK_THEME: ITheme = {
  background: "#0d1117",
  foreground: "#e6edf3",
  cursor: "#e6edf3",
  cursorAccent: "#0d1117",
  selectionBackground: "#388bfd55",
  black: "#484f58",
  red: "#ff7b72",
  green: "#3fb950",
  yellow: "#d29922",
  blue: "#58a6ff",
  magenta: "#bc8cff",
  cyan: "#39c5cf",
  white: "#b1bac4",
  brightBlack: "#6e7681",
  brightRed: "#ffa198",
  brightGreen: "#56d364",
  brightYellow: "#e3b341",
  brightBlue: "#79c0ff",
  brightMagenta: "#d2a8ff",
  brightCyan: "#56d4dd",
  brightWhite: "#f0f6fc",
};

const isDark = () => document.documentElement.classList.contains("dark");
const RESIZE_DEBOUNCE_MS = 100;

export interface TerminalHandle {
  focus(): void;
}

export interface PaneTerminalProps {
  paneId: string;
  /** Pane info from the attach reply, lifecycle changes and the exit. */
  onPane?: (pane: PaneInfo) => void;
  /** Attaching failed (unknown pane etc.). */
  onError?: (error: SocketError) => void;
  /** The first snapshot was painted (the terminal shows the pane); `empty`: there was no screen. */
  onReady?: (info: { empty: boolean }) => void;
}

export const PaneTerminal = forwardRef<TerminalHandle, PaneTerminalProps>(function PaneTerminal(
  { paneId, onPane, onError, onReady },
  ref,
) {
  const host = useRef<HTMLDivElement>(null);
  const termRef = useRef<XTerm | null>(null);
  // Callbacks change identity on every parent render; the effect reads the latest through refs.
  const cbs = useRef({ onPane, onError, onReady });
  cbs.current = { onPane, onError, onReady };

  useImperativeHandle(ref, () => ({ focus: () => termRef.current?.focus() }), []);

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    let disposed = false;
    const cleanups: Array<() => void> = [];

    void (async () => {
      const [{ Terminal }, { FitAddon }] = await Promise.all([import("@xterm/xterm"), import("@xterm/addon-fit")]);
      if (disposed) return;

      const term = new Terminal({
        fontFamily: 'ui-monospace, SFMono-Regular, "SF Mono", Menlo, Consolas, "Liberation Mono", monospace',
        fontSize: 13,
        lineHeight: 1.15,
        scrollback: 5000,
        // No blinking for people who ask their system for less motion.
        cursorBlink: !window.matchMedia("(prefers-reduced-motion: reduce)").matches,
        // The rendered rows are aria-hidden; screen-reader mode keeps a readable mirror of the
        // screen (and announces new output) for assistive technology.
        screenReaderMode: true,
        theme: isDark() ? DARK_THEME : LIGHT_THEME,
      });
      const fit: FitAddon = new FitAddon();
      term.loadAddon(fit);
      term.open(el);
      termRef.current = term;
      cleanups.push(() => {
        termRef.current = null;
        term.dispose();
      });

      // Theme follows the `dark` class on <html> (the theme toggle, or the system setting). The
      // strip below the last full row shows the viewport, which xterm's CSS paints black.
      const applyTheme = () => {
        const theme = isDark() ? DARK_THEME : LIGHT_THEME;
        term.options.theme = theme;
        el.style.backgroundColor = theme.background!;
        const viewport = el.querySelector<HTMLElement>(".xterm-viewport");
        if (viewport) viewport.style.backgroundColor = theme.background!;
      };
      applyTheme();
      const themeObserver = new MutationObserver(applyTheme);
      themeObserver.observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
      cleanups.push(() => themeObserver.disconnect());

      let exited = false;
      let readyOnce = false;
      let sent = { cols: 0, rows: 0 }; // the PTY's size as we last knew or set it
      let resizeTimer: ReturnType<typeof setTimeout> | null = null;
      cleanups.push(() => resizeTimer && clearTimeout(resizeTimer));

      const sendSize = () => {
        resizeTimer = null;
        // Only once the pane's own size is known (first snapshot), and never for an ended pane.
        if (disposed || exited || !readyOnce) return;
        if (term.cols === sent.cols && term.rows === sent.rows) return;
        sent = { cols: term.cols, rows: term.rows };
        stream.resize(term.cols, term.rows);
      };
      const fitNow = () => {
        if (disposed || el.clientWidth === 0 || el.clientHeight === 0) return;
        try {
          fit.fit();
        } catch {
          /* not measurable yet (hidden) */
        }
        if (resizeTimer) clearTimeout(resizeTimer);
        resizeTimer = setTimeout(sendSize, RESIZE_DEBOUNCE_MS);
      };

      // While a snapshot is being painted, live output waits so it lands after it.
      let painting = false;
      let held: string[] = [];

      const HIDE_CURSOR = "\x1b[?25l";
      const paint = (snap: PaneSnapshot, ended: boolean) => {
        painting = true;
        held = [];
        // Everything written before is parsed first; then start from a clean terminal.
        term.write("\x1bc", () => {
          if (disposed) return;
          term.reset();
          const cols = Math.max(2, snap.cols | 0);
          const rows = Math.max(1, snap.rows | 0);
          if (term.cols !== cols || term.rows !== rows) term.resize(cols, rows);
          sent = { cols, rows };
          term.write(ended ? snap.data + HIDE_CURSOR : snap.data, () => {
            if (disposed) return;
            fitNow();
            term.scrollToBottom();
            if (!readyOnce) {
              readyOnce = true;
              // Focus the terminal only when nothing else has it: a snapshot that arrives late
              // (a loaded machine) must not take the keyboard from a control the user focused.
              const active = document.activeElement;
              if (!active || active === document.body || el.contains(active)) term.focus();
              cbs.current.onReady?.({ empty: snap.data.length === 0 });
            }
          });
          painting = false;
          const later = held;
          held = [];
          if (later.length) term.write(later.join(""));
        });
      };

      const markExited = (pane: PaneInfo) => {
        if (exited) return;
        exited = true;
        term.options.disableStdin = true;
        term.options.cursorBlink = false;
        const how = pane.signal ? `signal ${pane.signal}` : `code ${pane.exitCode ?? "?"}`;
        term.write(`\r\n\x1b[0m\x1b[2m[process exited with ${how}]\x1b[0m\r\n${HIDE_CURSOR}`);
      };

      const stream = attachPane(paneId, {
        snapshot(snap, pane) {
          paint(snap, !pane.live);
          cbs.current.onPane?.(pane);
          if (!pane.live && !exited) {
            exited = true;
            term.options.disableStdin = true;
            term.options.cursorBlink = false;
          }
        },
        output(data) {
          if (painting) held.push(data);
          else term.write(data);
        },
        lifecycle(pane) {
          cbs.current.onPane?.(pane);
        },
        exit(pane) {
          markExited(pane);
          cbs.current.onPane?.(pane);
        },
        error(err) {
          cbs.current.onError?.(err);
        },
      });
      cleanups.push(() => stream.detach());

      const input = term.onData((data) => {
        if (!exited) stream.input(data);
      });
      cleanups.push(() => input.dispose());

      const ro = new ResizeObserver(() => fitNow());
      ro.observe(el);
      cleanups.push(() => ro.disconnect());
      fitNow();
    })();

    return () => {
      disposed = true;
      for (const c of cleanups.reverse()) {
        try {
          c();
        } catch {
          /* already gone */
        }
      }
    };
  }, [paneId]);

  return (
    <div
      ref={host}
      data-testid="terminal"
      data-pane-id={paneId}
      className="absolute inset-0 overflow-hidden [&_.xterm]:h-full"
    />
  );
});
