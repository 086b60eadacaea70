// Entry of a mirror worker thread (see mirror-worker.ts): loader hooks are per thread, so tsx is
// registered here before the worker's TypeScript is loaded.
import { register } from "tsx/esm/api";

register();
await import("./mirror-worker.ts");
