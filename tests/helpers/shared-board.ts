// Two `yard serve` processes on one throwaway PostgreSQL board (each with its own data dir and
// pane host), for the tests of what crosses between processes.
import { createPgDatabase, dropPgDatabase } from "./pg";
import { startTestServer, type TestServer } from "./server";

export interface SharedBoard {
  url: string;
  a: TestServer;
  b: TestServer;
}

export async function startSharedBoard(): Promise<SharedBoard> {
  const url = await createPgDatabase();
  const [a, b] = await Promise.all([
    startTestServer({ env: { DATABASE_URL: url } }),
    startTestServer({ env: { DATABASE_URL: url } }),
  ]);
  return { url, a, b };
}

/** Both servers stopped (their agents too) and the database dropped; a board half started is fine. */
export async function stopSharedBoard(board: Partial<SharedBoard>): Promise<void> {
  await Promise.all([board.a?.dispose(), board.b?.dispose()]);
  if (board.url) await dropPgDatabase(board.url);
}
