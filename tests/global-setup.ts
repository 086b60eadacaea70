// vitest global setup: the migrated database every fresh test data dir starts from (db-template.ts),
// and strict journal events for the servers the tests start (they run as production): a journal
// payload that does not match its schema fails the test instead of being kept, marked.
import { makeDbTemplate, TEMPLATE_ENV } from "./helpers/db-template";

export default async function setup(): Promise<void> {
  process.env[TEMPLATE_ENV] = await makeDbTemplate();
  process.env.YARD_STRICT_EVENTS = "1";
}
