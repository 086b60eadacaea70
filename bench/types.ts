export interface BenchResult {
  name: string;
  value: number;
  baseline: number;
  ratio: number;
  unit: string;
  target: string;
  pass: boolean;
  /** Printed for information, not a target: never a miss (e.g. a wall-clock ratio on a shared machine). */
  info?: boolean;
  note?: string;
}
