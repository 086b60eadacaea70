// vitest global setup: the migrated database every fresh test data dir starts from (db-template.ts).
import { makeDbTemplate, TEMPLATE_ENV } from "./helpers/db-template";

export default async function setup(): Promise<void> {
  process.env[TEMPLATE_ENV] = await makeDbTemplate();
}
