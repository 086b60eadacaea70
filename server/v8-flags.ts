// V8 settings of the server process, applied before anything else in it loads (server/main.ts
// imports this first; `yard serve` runs the same bundle in its own process). Only settings V8
// reads when they are used can change here; the heap's layout is fixed once the process runs.
//
// --wasm-num-compilation-tasks=0: compile WebAssembly (Prisma's query compiler; the migration
// engine when migrations are pending) on the main thread instead of V8's background threads.
// Those threads allocate through their own malloc arenas, which keep the freed compiler memory
// for the life of the process: ~29 MB of idle RSS for a compile that runs once at start.
//
// --liftoff-only: keep WebAssembly at V8's baseline tier. Otherwise V8 re-compiles the query
// compiler's hot functions with TurboFan on a background thread after start: ~0.5 s of CPU and
// ~30 MB of RSS per server start, for query planning that is a small part of a request's cost
// (`npm run bench -- tasks` measures requests either way).
import v8 from "node:v8";

v8.setFlagsFromString("--wasm-num-compilation-tasks=0");
v8.setFlagsFromString("--liftoff-only");
