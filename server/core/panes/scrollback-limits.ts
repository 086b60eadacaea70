// How much scrollback a pane may keep (YARD_SCROLLBACK_LINES): the bounds, apart from the mirror
// so that the server can check the setting without loading the terminal emulator.
export const MIN_SCROLLBACK = 5000;
/** The most a pane may keep: memory per live pane grows with it. */
export const MAX_SCROLLBACK = 100_000;
