// How long something has been going on, as the board's cards say it: compact on the card ("3m",
// "2h", "1d"), in words for screen readers ("3 minutes"), and the exact moment for the tooltip.
// Spans are floored (a card 119 minutes in a column says "1h").

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** "<1m", "3m", "2h", "1d" (never negative). */
export function compactSpan(ms: number): string {
  const d = Math.max(0, ms);
  if (d < MINUTE) return "<1m";
  if (d < HOUR) return `${Math.floor(d / MINUTE)}m`;
  if (d < DAY) return `${Math.floor(d / HOUR)}h`;
  return `${Math.floor(d / DAY)}d`;
}

/** The same span in words: "less than a minute", "3 minutes", "1 hour", "2 days". */
export function spanWords(ms: number): string {
  const d = Math.max(0, ms);
  const n = (v: number, unit: string) => `${v} ${unit}${v === 1 ? "" : "s"}`;
  if (d < MINUTE) return "less than a minute";
  if (d < HOUR) return n(Math.floor(d / MINUTE), "minute");
  if (d < DAY) return n(Math.floor(d / HOUR), "hour");
  return n(Math.floor(d / DAY), "day");
}

/** The exact moment in the reader's locale, e.g. "2 Dec 2026, 16:03". */
export function exactTime(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : t.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A span to the second for reports: "45s", "3m 20s", "2h 5m", "1d 3h" (never negative). */
export function preciseSpan(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  if (s < 86_400) return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
  return `${Math.floor(s / 86_400)}d ${Math.floor((s % 86_400) / 3600)}h`;
}
