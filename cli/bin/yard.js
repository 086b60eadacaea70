#!/usr/bin/env node
// `yard`: runs the TypeScript CLI through tsx's loader (no build step).
import { register } from "tsx/esm/api";

register();
await import("../main.ts");
