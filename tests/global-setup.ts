// vitest global setup: the migrated databases every fresh test data dir (db-template.ts) and every
// PostgreSQL test database (helpers/pg.ts) starts from, and strict journal events for the servers
// the tests start (they run as production): a journal payload that does not match its schema
// fails the test instead of being kept, marked.
import { makeDbTemplate, TEMPLATE_ENV } from "./helpers/db-template";
import { makePgTemplate } from "./helpers/pg";

export default async function setup(): Promise<void> {
  process.env[TEMPLATE_ENV] = await makeDbTemplate();
  await makePgTemplate();
  process.env.YARD_STRICT_EVENTS = "1";
}
