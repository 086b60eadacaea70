// tRPC setup: the ApiCall (tRPC's request context: the services and who is calling), the error shape every client sees
// ({code, message, details, retryable} from the core registry), and procedure kinds.
import { TRPCError, initTRPC } from "@trpc/server";
import type { TRPC_ERROR_CODE_KEY } from "@trpc/server/rpc";
import { ZodError } from "zod";
import { inputShapeError } from "../wire/common";
import { ERROR_CODES, type ErrorCode, YardError } from "../core/errors";
import type { Principal } from "../security/guard";
import type { Services } from "../composition";
import type { SandboxOf } from "../core/agents/roles";
import type { CallingPane } from "../core/tasks/access";
import { GATES, namedIds, personRefusal, roleRefusal, sandboxRefusal, spawnOf } from "./roles";

export interface ApiCall {
  services: Services;
  principal: Principal;
  /**
   * Set exactly when the caller is a pane (its token verified against its live pane): its id,
   * task, role, and whether it runs in the OS sandbox (`sandbox`, with network or not; the pane
   * registry's authentication says; left out, the access lookup reads the pane's record).
   */
  pane: CallingPane | null;
  /** A call another process of the board passed here (api/at-owner.ts): it is not passed on again. */
  forwarded?: boolean;
}

const TRPC_CODE: Record<ErrorCode, TRPC_ERROR_CODE_KEY> = {
  BAD_PARAMS: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  RATE_LIMITED: "TOO_MANY_REQUESTS",
  TIMEOUT: "TIMEOUT",
  PANE_BUSY: "CONFLICT",
  AGENT_NOT_READY: "CONFLICT",
  PANE_EXITED: "CONFLICT",
  SUBMIT_STALLED: "CONFLICT",
  TASK_NOT_COMPLETED: "CONFLICT",
  DIRTY_TARGET: "CONFLICT",
  DIRTY_SOURCE: "CONFLICT",
  MERGE_CONFLICT: "CONFLICT",
  NOT_FAST_FORWARD: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  GIT_FAILED: "INTERNAL_SERVER_ERROR",
  SERVER_UNAVAILABLE: "INTERNAL_SERVER_ERROR",
  SANDBOX_UNAVAILABLE: "PRECONDITION_FAILED",
  PANE_HOST_UNAVAILABLE: "INTERNAL_SERVER_ERROR",
  NO_REMOTE: "PRECONDITION_FAILED",
  GITHUB_TOKEN_MISSING: "PRECONDITION_FAILED",
  GITHUB_AUTH: "FORBIDDEN",
  GITHUB_UNAVAILABLE: "BAD_GATEWAY",
  HOST_KEY_UNKNOWN: "CONFLICT",
  HOST_KEY_CHANGED: "CONFLICT",
  RUNNER_UNAVAILABLE: "BAD_GATEWAY",
  INTERNAL: "INTERNAL_SERVER_ERROR",
};

export interface YardErrorData {
  code: ErrorCode;
  message: string;
  details: Record<string, unknown> | null;
  retryable: boolean;
}

function zodToYardError(e: ZodError): YardError {
  const issues = e.issues.map((i) => ({ path: i.path.join("."), message: i.message }));
  const message = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join("; ");
  return new YardError("BAD_PARAMS", message || "Invalid input", { issues });
}

/** Any thrown value → the one error shape. */
function toYardError(error: TRPCError): YardError {
  const cause = error.cause;
  if (cause instanceof YardError) return cause;
  if (cause instanceof ZodError) return zodToYardError(cause);
  if (cause instanceof RangeError) return new YardError("BAD_PARAMS", "The input is too large or too deeply nested");
  switch (error.code) {
    case "BAD_REQUEST":
    case "PARSE_ERROR":
      return new YardError("BAD_PARAMS", error.message);
    case "METHOD_NOT_SUPPORTED":
      return new YardError(
        "BAD_PARAMS",
        `${error.message || "Wrong HTTP method"}: queries are GET, mutations are POST`,
      );
    case "UNSUPPORTED_MEDIA_TYPE":
      return new YardError("BAD_PARAMS", `${error.message || "Unsupported content type"}: send application/json`);
    case "PAYLOAD_TOO_LARGE":
      return new YardError("PAYLOAD_TOO_LARGE", error.message);
    case "TIMEOUT":
      return new YardError("TIMEOUT", error.message);
    case "TOO_MANY_REQUESTS":
      return new YardError("RATE_LIMITED", error.message);
    case "CONFLICT":
      return new YardError("CONFLICT", error.message);
    case "UNAUTHORIZED":
      return new YardError("UNAUTHORIZED", error.message);
    case "FORBIDDEN":
      return new YardError("FORBIDDEN", error.message);
    case "NOT_FOUND":
      return new YardError("NOT_FOUND", error.message);
    default:
      return new YardError("INTERNAL", error.message || ERROR_CODES.INTERNAL.message);
  }
}

const t = initTRPC.context<ApiCall>().create({
  errorFormatter({ shape, error }) {
    const y = toYardError(error);
    const yard: YardErrorData = {
      code: y.code,
      message: y.message,
      details: y.details ?? null,
      retryable: y.retryable,
    };
    return { ...shape, message: y.message, data: { ...shape.data, stack: undefined, yard } };
  },
});

/** Core errors keep their meaning over HTTP (status code) as well as in the body. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const y =
      result.error.cause instanceof YardError
        ? result.error.cause
        : result.error.cause instanceof ZodError
          ? zodToYardError(result.error.cause)
          : null;
    if (y) throw new TRPCError({ code: TRPC_CODE[y.code], message: y.message, cause: y });
  }
  return result;
});

/** Every input is bounded (string length, depth, entries) before any schema walks it. */
const boundedInput = t.middleware(async ({ getRawInput, next }) => {
  const problem = inputShapeError(await getRawInput());
  if (problem) throw new YardError("BAD_PARAMS", `Input refused: ${problem}`);
  return next();
});

/**
 * The role gates (roles.ts): a person's role must reach the one the procedure needs; a pane's
 * role must be listed for the procedure, and a pane may
 * touch only the tasks and panes its role reaches (its own; an orchestrator's also those it
 * started, their subtasks and its context), and name as a parent, a dependency or a context only
 * what it reaches already. A sandboxed pane may start no process outside the sandbox (no bare
 * pane; a task's agent only when that task runs sandboxed, with no more network than the caller).
 * Refusals are FORBIDDEN, before the procedure runs.
 */
const article = (role: string) => (/^[aeiou]/.test(role) ? "An" : "A");

const gate = t.middleware(async ({ ctx, path, getRawInput, next }) => {
  if (ctx.principal.kind === "person") {
    const { person } = ctx.principal;
    const refusal = personRefusal(path, person);
    if (refusal)
      throw new YardError("FORBIDDEN", refusal, {
        person: person.name,
        role: person.role,
        needs: GATES[path]?.person ?? "admin",
        procedure: path,
      });
    return next();
  }
  const role = ctx.pane?.role ?? "worker";
  const refusal = roleRefusal(path, role);
  if (refusal) throw new YardError("FORBIDDEN", refusal, { role, procedure: path });
  const g = GATES[path]!;
  if (!ctx.pane) return next();
  const raw = (await getRawInput()) as Record<string, unknown> | null | undefined;
  const spawn = spawnOf(path, raw);
  if (!g.task && !g.pane && !g.comment && !g.names && !spawn) return next();
  const named = (field: string | undefined) =>
    field && raw && typeof raw === "object" && typeof raw[field] === "string" ? (raw[field] as string) : null;
  const { services } = ctx;
  const scope = await services.access.scope(ctx.pane, {
    tasksInContext: (id) => services.tasks.list({ contextId: id }),
  });
  const taskId = named(g.task);
  if (taskId && (await scope.task(taskId)) === false)
    throw new YardError("FORBIDDEN", `${article(role)} ${role} pane may not touch task ${taskId}`, { role, taskId });
  const paneId = named(g.pane);
  if (paneId && (await scope.pane(paneId)) === false)
    throw new YardError("FORBIDDEN", `${article(role)} ${role} pane may not touch pane ${paneId}`, { role, paneId });
  const commentId = named(g.comment);
  const commentTask = commentId ? await services.reviews.commentTask(commentId) : null;
  if (commentTask && (await scope.task(commentTask)) === false)
    throw new YardError(
      "FORBIDDEN",
      `${article(role)} ${role} pane may not touch comment ${commentId} (on task ${commentTask})`,
      { role, commentId, taskId: commentTask },
    );
  for (const field of g.names?.tasks ?? []) {
    for (const id of namedIds(raw, field)) {
      if ((await scope.task(id)) === false)
        throw new YardError(
          "FORBIDDEN",
          `${article(role)} ${role} pane may not name task ${id} (${field}): it is not a task it reaches`,
          { role, field, taskId: id },
        );
    }
  }
  for (const field of g.names?.panes ?? []) {
    for (const id of namedIds(raw, field)) {
      if ((await scope.pane(id)) === false)
        throw new YardError(
          "FORBIDDEN",
          `${article(role)} ${role} pane may not name pane ${id} (${field}): it is not a pane it reaches`,
          { role, field, paneId: id },
        );
    }
  }
  for (const field of g.names?.contexts ?? []) {
    for (const id of namedIds(raw, field)) {
      if (!(await scope.context(id))) {
        throw new YardError(
          "FORBIDDEN",
          `${article(role)} ${role} pane may not start work in context ${id}: it holds tasks the pane does not reach (name your own context, or one of your own)`,
          { role, field, contextId: id },
        );
      }
    }
  }
  if (spawn && scope.caller.sandbox) {
    const why =
      spawn === "pane"
        ? sandboxRefusal(
            scope.caller,
            { sandbox: null },
            "a bare pane (it has no worktree to sandbox into; start a task instead)",
          )
        : spawn === "task" && taskId
          ? sandboxRefusal(
              scope.caller,
              { sandbox: await taskSandbox(services, taskId), taskId },
              `task ${taskId}'s agent`,
            )
          : spawn === "typed" && paneId && services.panes.sandboxOf(paneId) !== undefined
            ? sandboxRefusal(
                scope.caller,
                { sandbox: services.panes.sandboxOf(paneId) ?? null },
                `typing into pane ${paneId}`,
              )
            : null; // "start": tasks.start runs the new task sandboxed, or refuses (core/tasks/start.ts); a pane not running says so itself
    if (why) throw new YardError("FORBIDDEN", why, { role, procedure: path, ...(taskId ? { taskId } : {}) });
  }
  return next();
});

/** How a task's agent runs: in the OS sandbox (with the network its profile gives it) or not. */
async function taskSandbox(services: Services, taskId: string): Promise<SandboxOf | null> {
  const row = await services.tasks.row(taskId);
  if (!row.sandboxed) return null;
  const profile = row.argv ? null : await services.agents.get(row.agent).catch(() => null);
  return { network: profile?.sandboxNetwork ?? false };
}

export const router = t.router;
/**
 * Every procedure: any authenticated caller (the install token, a browser session, or a pane
 * token whose secret and live pane the HTTP edge has verified; forged or dead pane tokens never
 * get this far), bounded input, then the role gate table decides who may call it.
 */
export const callerProcedure = t.procedure.use(mapErrors).use(boundedInput).use(gate);
