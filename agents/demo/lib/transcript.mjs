// @ts-check
/**
 * Demo agent: the session transcript, a JSONL file outside the working tree (so diffs stay
 * clean) at the transcript_path the hooks report, like Claude Code's. Best effort.
 */
import fs from "node:fs";
import { CWD, SESSION_ID, TRANSCRIPT_DIR, TRANSCRIPT_PATH } from "./config.mjs";

/** @param {Record<string, unknown>} entry */
export function logTranscript(entry) {
  try {
    fs.mkdirSync(TRANSCRIPT_DIR, { recursive: true });
    fs.appendFileSync(TRANSCRIPT_PATH, `${JSON.stringify({ ...entry, session_id: SESSION_ID, cwd: CWD })}\n`);
  } catch {
    /* best effort */
  }
}
