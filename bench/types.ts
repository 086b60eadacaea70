export interface BenchResult {
  name: string;
  value: number;
  baseline: number;
  ratio: number;
  unit: string;
  target: string;
  pass: boolean;
  note?: string;
}
