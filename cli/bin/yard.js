#!/usr/bin/env node
// `yard`: runs the TypeScript CLI through tsx's loader (no build step). `yard hook` skips the
// loader: agents run it on every hook, so it must start fast.
if (process.argv[2] === "hook") {
  const { runHook } = await import("./hook.mjs");
  await runHook(process.argv[3]);
} else {
  const { register } = await import("tsx/esm/api");
  register();
  await import("../main.ts");
}
