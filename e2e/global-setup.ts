// Playwright global setup: build the UI once, before the per-spec servers start.
import { ensureUiBuilt } from "./build-ui";

export default async function globalSetup(): Promise<void> {
  await ensureUiBuilt();
}
