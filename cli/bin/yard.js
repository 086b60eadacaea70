#!/usr/bin/env node
// `yard`: runs the CLI from its prebuilt bundle (cli/dist/yard.mjs, plain JavaScript built by
// scripts/build-cli.mjs), rebuilding it first when a source changed; see bundle.mjs. Only when
// it cannot be built does it fall back to the TypeScript sources through tsx's loader.
// `yard hook` skips all of that: agents run it on every hook, so it must start fast.
if (process.argv[2] === "hook") {
  const { runHook } = await import("./hook.mjs");
  await runHook(process.argv[3], process.argv[4]);
} else {
  const { cliEntry } = await import("./bundle.mjs");
  const entry = await cliEntry();
  if (entry) await import(entry.href);
  else {
    const { register } = await import("tsx/esm/api");
    register();
    await import("../main.ts");
  }
}
