// Playwright global setup: build the UI once, before the per-spec servers start, and make the
// migrated database their fresh data dirs start from (tests/helpers/db-template.ts).
import { makeDbTemplate, TEMPLATE_ENV } from "../tests/helpers/db-template";
import { ensureUiBuilt } from "../scripts/build-ui";

export default async function globalSetup(): Promise<void> {
  await ensureUiBuilt();
  process.env[TEMPLATE_ENV] = await makeDbTemplate();
}
