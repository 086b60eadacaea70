// Sizes and ages as people write them, shared by the CLI, the server and the browser (no imports:
// the CLI's bundle stays free of zod): "20GB" -> bytes (parseSize, binary units: 1 GB = 1024^3
// bytes, as `du -h` counts), bytes -> "1.5 GB" (formatSize), "7d" -> milliseconds (parseAge).

const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  K: 1024,
  KB: 1024,
  KIB: 1024,
  M: 1024 ** 2,
  MB: 1024 ** 2,
  MIB: 1024 ** 2,
  G: 1024 ** 3,
  GB: 1024 ** 3,
  GIB: 1024 ** 3,
  T: 1024 ** 4,
  TB: 1024 ** 4,
  TIB: 1024 ** 4,
};

/** The largest budget accepted (1 PiB): anything larger is a typo. */
const MAX_SIZE = 1024 ** 5;

/** "20GB", "512 MB", "1.5g", "1000" (bytes) -> bytes; null when it is not a size. */
export function parseSize(text: string): number | null {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(text);
  if (!m) return null;
  const unit = UNITS[m[2]!.toUpperCase()];
  if (unit === undefined) return null;
  const bytes = Math.round(Number(m[1]) * unit);
  return Number.isFinite(bytes) && bytes > 0 && bytes <= MAX_SIZE ? bytes : null;
}

/** Bytes as a person reads them: "0 B", "812 B", "4.0 KB", "1.5 GB" (binary units). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ["KB", "MB", "GB", "TB", "PB"];
  let v = bytes / 1024;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} ${units[i]}`;
}

/** A duration for --older-than: "7d", "12h", "30m", "2w" -> milliseconds; null when it is not one. */
export function parseAge(text: string): number | null {
  const m = /^\s*(\d+)\s*(m|h|d|w)\s*$/i.exec(text);
  if (!m) return null;
  const per = { m: 60_000, h: 3_600_000, d: 86_400_000, w: 7 * 86_400_000 }[m[2]!.toLowerCase() as "m"];
  const ms = Number(m[1]) * per;
  return ms > 0 && ms <= 3650 * 86_400_000 ? ms : null;
}
