// The one registry of error codes shared by server, CLI and UI.
// Each code has a default message and whether a caller may retry it unchanged.
// Core code throws YardError; the tRPC edge maps it to a typed error shape and the CLI
// prints it as {"error":{"code","message","details"}}.

export const ERROR_CODES = {
  BAD_PARAMS: { message: "The request's parameters are invalid.", retryable: false, http: 400 },
  UNAUTHORIZED: { message: "Missing or invalid token.", retryable: false, http: 401 },
  FORBIDDEN: { message: "This caller is not allowed to do that.", retryable: false, http: 403 },
  NOT_FOUND: { message: "No such object.", retryable: false, http: 404 },
  CONFLICT: { message: "That conflicts with the current state.", retryable: false, http: 409 },
  RATE_LIMITED: { message: "Too many running tasks; finish or cancel one first.", retryable: true, http: 429 },
  TIMEOUT: { message: "Timed out waiting.", retryable: true, http: 408 },
  PANE_BUSY: { message: "The pane is busy (the agent is working or waiting on a prompt).", retryable: true, http: 409 },
  AGENT_NOT_READY: { message: "The agent is not ready for input yet.", retryable: true, http: 409 },
  PANE_EXITED: { message: "The pane's process has exited.", retryable: false, http: 409 },
  SUBMIT_STALLED: {
    message: "The agent did not start working after the prompt was submitted.",
    retryable: true,
    http: 409,
  },
  TASK_NOT_COMPLETED: { message: "Only a completed task can be merged.", retryable: false, http: 409 },
  DIRTY_TARGET: { message: "The target branch's checkout has uncommitted changes.", retryable: false, http: 409 },
  DIRTY_SOURCE: { message: "The task's worktree has uncommitted changes.", retryable: false, http: 409 },
  MERGE_CONFLICT: {
    message: "The merge conflicts; it was aborted and the target left clean.",
    retryable: false,
    http: 409,
  },
  NOT_FAST_FORWARD: {
    message: "The target has commits the branch does not: it cannot be fast-forwarded.",
    retryable: false,
    http: 409,
  },
  PAYLOAD_TOO_LARGE: { message: "The request is too large.", retryable: false, http: 413 },
  GIT_FAILED: { message: "A git command failed.", retryable: false, http: 500 },
  SERVER_UNAVAILABLE: { message: "The Switchyard server is not reachable.", retryable: true, http: 503 },
  SANDBOX_UNAVAILABLE: {
    message: "The OS sandbox (bubblewrap) cannot start on this machine.",
    retryable: false,
    http: 503,
  },
  PANE_HOST_UNAVAILABLE: {
    message: "The pane host (the process that runs the agents' terminals) is not reachable.",
    retryable: true,
    http: 503,
  },
  // Hand-off to GitHub (push, pull requests): server/core/github/.
  NO_REMOTE: { message: "The repository has no remote to push to.", retryable: false, http: 409 },
  GITHUB_TOKEN_MISSING: {
    message:
      "No GitHub token: set GITHUB_TOKEN in the server's environment, or the project's with `yard project github-token ID`.",
    retryable: false,
    http: 412,
  },
  GITHUB_AUTH: { message: "GitHub refused the token.", retryable: false, http: 403 },
  GITHUB_UNAVAILABLE: { message: "GitHub's API is not reachable or failed.", retryable: true, http: 502 },
  // Runners over SSH: server/core/runners/.
  HOST_KEY_UNKNOWN: {
    message: "The runner's SSH host key is not trusted yet: check its fingerprint, then `yard runner trust`.",
    retryable: false,
    http: 409,
  },
  HOST_KEY_CHANGED: {
    message: "The runner's SSH host key is not the one trusted: the machine changed, or someone is in the middle.",
    retryable: false,
    http: 409,
  },
  RUNNER_UNAVAILABLE: { message: "The runner cannot be reached over SSH.", retryable: true, http: 503 },
  INTERNAL: { message: "Internal error.", retryable: false, http: 500 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

export function isErrorCode(x: unknown): x is ErrorCode {
  return typeof x === "string" && Object.hasOwn(ERROR_CODES, x);
}

export class YardError extends Error {
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  constructor(code: ErrorCode, message?: string, details?: Record<string, unknown>) {
    super(message ?? ERROR_CODES[code].message);
    this.name = "YardError";
    this.code = code;
    this.details = details;
  }
  get retryable(): boolean {
    return ERROR_CODES[this.code].retryable;
  }
  toJSON(): { code: ErrorCode; message: string; details: Record<string, unknown> | null } {
    return { code: this.code, message: this.message, details: this.details ?? null };
  }
}

export function isYardError(e: unknown): e is YardError {
  return e instanceof YardError;
}
