// What `yard db copy` reports (its --json output): per table, the rows read from the SQLite board
// and found in PostgreSQL, and each side's checksum.
interface TableReport {
  table: string;
  rows: number;
  targetRows: number;
  sourceChecksum: string;
  targetChecksum: string;
  match: boolean;
}

export interface CopyReport {
  from: string;
  to: string;
  tables: TableReport[];
  ok: boolean;
}
