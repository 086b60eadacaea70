// `yard mcp`, the MCP server, driven by the SDK's own client over stdio against the real server
// on a random port: the tools and their input schemas, a demo-agent task started, waited on and
// diffed through tools, refusals with the same error codes `yard --json` prints (a missing task,
// a malformed id, a worker pane's token on an orchestrator-only tool), and the tool table
// checked against the router so no schema or kind drifts from the procedure it calls.
import { readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { jsonSchemaOf } from "../cli/mcp/server";
import { TOOLS } from "../cli/mcp/tools";
import { appRouter } from "../server/api/router";
import { adminClient } from "./helpers/client";
import { makeRepo } from "./helpers/git";
import { ROOT, startTestServer, type TestServer, yard, YARD_BIN } from "./helpers/server";
import { startRecordingWorker } from "./helpers/worker";

vi.setConfig({ testTimeout: 120_000 });

let server: TestServer;
let repo: string;
const clients: Client[] = [];

/** The environment a `yard` call gets, minus unset variables (the SDK's transport wants strings). */
function envOf(extra: Record<string, string>): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...extra })) if (v !== undefined) env[k] = v;
  return env;
}

/** `node cli/bin/yard.js mcp` as an MCP server, connected to the SDK's client. */
async function connect(env: Record<string, string>): Promise<Client> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [YARD_BIN, "mcp"],
    env: envOf(env),
    cwd: ROOT,
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d) => (stderr += d));
  const client = new Client({ name: "yard-test", version: "0.0.0" });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`yard mcp did not start: ${(e as Error).message}\n${stderr}`);
  }
  clients.push(client);
  return client;
}

/** The install token's client: discovers the server from YARD_HOME, as `yard` does. */
const asUser = () => connect({ YARD_HOME: server.home, YARD_URL: "", YARD_TOKEN: "" });

type Result = {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: Record<string, unknown>;
};
async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Result> {
  return (await client.callTool({ name, arguments: args }, undefined, { timeout: 110_000 })) as Result;
}
/** A tool's text content, parsed. */
const docOf = (r: Result) => JSON.parse(r.content[0]!.text!) as Record<string, any>;

beforeAll(async () => {
  server = await startTestServer();
  repo = makeRepo("yard-mcp-repo-");
});
afterAll(async () => {
  for (const c of clients) await c.close().catch(() => {});
  await server?.dispose();
  rmSync(repo, { recursive: true, force: true });
});

describe("yard mcp", () => {
  it("lists every tool of the table with its procedure's input schema", async () => {
    const client = await asUser();
    const { tools } = await client.listTools();
    const names = tools.map((t) => t.name);
    expect(names).toEqual(TOOLS.map((t) => t.name));
    for (const name of [
      "status",
      "task_start",
      "task_wait",
      "task_get",
      "task_list",
      "task_diff",
      "task_report",
      "task_follow_up",
      "task_cancel",
      "task_finish",
      "task_events",
      "pane_read",
      "pane_send_keys",
      "attention",
      "review_submit",
    ]) {
      expect(names).toContain(name);
    }
    for (const tool of TOOLS) {
      const listed = tools.find((t) => t.name === tool.name)!;
      expect(listed.description).toBe(tool.description);
      expect(listed.inputSchema).toMatchObject(jsonSchemaOf(tool));
      expect(listed.annotations?.readOnlyHint).toBe(tool.kind === "query");
    }
    const get = tools.find((t) => t.name === "task_get")!.inputSchema as {
      properties: Record<string, { pattern?: string }>;
      required: string[];
    };
    expect(get.required).toEqual(["id"]);
    expect(get.properties.id!.pattern).toBe("^tsk[a-z0-9]{4,40}$");
    const start = tools.find((t) => t.name === "task_start")!.inputSchema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(start.required).toEqual(["objective"]);
    expect(Object.keys(start.properties)).toEqual(
      expect.arrayContaining([
        "repoPath",
        "projectId",
        "agent",
        "argv",
        "contextId",
        "constraints",
        "acceptanceCriteria",
        "backlog",
      ]),
    );
  });

  it("starts a demo-agent task, waits for it and reads its diff", async () => {
    const client = await asUser();
    const status = await call(client, "status", {});
    expect(status.isError).toBeFalsy();
    expect(status.structuredContent).toMatchObject({ ok: true, principal: "person" });

    const objective = "write mcp-notes.txt hello from the MCP server\nreport completed wrote mcp-notes.txt";
    const started = await call(client, "task_start", {
      repoPath: repo,
      objective,
      title: "mcp task",
      agent: "demo",
      contextId: "mcp-1",
    });
    expect(started.isError, JSON.stringify(started)).toBeFalsy();
    const { task, pane } = started.structuredContent as {
      task: { id: string; state: string; contextId: string };
      pane: { id: string };
    };
    expect(task).toMatchObject({ state: "pending", contextId: "mcp-1" });
    expect(pane.id).toMatch(/^pane/);
    expect(docOf(started)).toEqual(started.structuredContent);

    const waited = await call(client, "task_wait", { id: task.id, timeoutMs: 90_000 });
    expect(waited.isError, JSON.stringify(waited)).toBeFalsy();
    const [done] = (
      waited.structuredContent as {
        tasks: Array<{ id: string; state: string; result: { status: string; summary: string } | null }>;
      }
    ).tasks;
    expect(done).toMatchObject({
      id: task.id,
      state: "completed",
      result: { status: "completed", summary: "wrote mcp-notes.txt" },
    });

    const diff = await call(client, "task_diff", { id: task.id });
    expect(diff.isError, JSON.stringify(diff)).toBeFalsy();
    const d = diff.structuredContent as {
      diff: string;
      files: Array<{ path: string; status: string; additions: number }>;
    };
    expect(d.files).toEqual([expect.objectContaining({ path: "mcp-notes.txt", status: "added", additions: 1 })]);
    expect(d.diff).toContain("+hello from the MCP server");

    // The result is the document `yard --json` prints for the same call.
    const get = await call(client, "task_get", { id: task.id });
    const cli = await yard(server, ["--json", "task", "get", task.id]);
    expect(cli.code).toBe(0);
    expect(docOf(get)).toEqual({ task: expect.objectContaining({ id: task.id, state: "completed" }) });
    expect(Object.keys(docOf(get).task).sort()).toEqual(Object.keys(cli.json.task).sort());
  });

  it("refuses a call with the same error code and message the CLI prints", async () => {
    const client = await asUser();
    for (const id of ["tsk0000nothere", "not-a-task"]) {
      const res = await call(client, "task_get", { id });
      expect(res.isError).toBe(true);
      const cli = await yard(server, ["--json", "task", "get", id]);
      expect(cli.code).toBe(1);
      expect(docOf(res)).toEqual({ error: { ...cli.json.error, retryable: false } });
      expect(res.structuredContent).toEqual(docOf(res));
    }
    expect(docOf(await call(client, "task_get", { id: "tsk0000nothere" })).error.code).toBe("NOT_FOUND");
    expect(docOf(await call(client, "task_get", { id: "not-a-task" })).error.code).toBe("BAD_PARAMS");
    // A missing required value is the server's BAD_PARAMS too, not the SDK's own validation text.
    const missing = await call(client, "task_start", { repoPath: repo });
    expect(missing.isError).toBe(true);
    expect(docOf(missing).error).toMatchObject({
      code: "BAD_PARAMS",
      details: { issues: [expect.objectContaining({ path: "objective" })] },
    });
  });

  it("acts with a worker pane's token inside that pane: the same gates as the CLI there", async () => {
    const api = adminClient(server);
    const { task, env } = await startRecordingWorker(api, repo);
    expect(env.YARD_PANE).toBeTruthy();
    const paneEnv = { ...env, YARD_HOME: "" };
    const client = await connect(paneEnv);

    const listed = await call(client, "task_list", {});
    expect(listed.isError).toBe(true);
    const cli = await yard(server, ["--json", "task", "list"], { env: paneEnv });
    expect(cli.json.error.code).toBe("FORBIDDEN");
    expect(docOf(listed)).toEqual({ error: { ...cli.json.error, retryable: false } });

    // Its own task it may read.
    const own = await call(client, "task_get", { id: task.id });
    expect(own.isError, JSON.stringify(own)).toBeFalsy();
    expect((own.structuredContent as { task: { id: string } }).task.id).toBe(task.id);
    const status = await call(client, "status", {});
    expect(status.structuredContent).toMatchObject({ principal: "pane" });
    await api.tasks.cancel.mutate({ id: task.id });
  });
});

describe("the tool table", () => {
  type Proc = { _def: { type: string; inputs: z.ZodType[] } };
  const procedures = (appRouter as unknown as { _def: { procedures: Record<string, Proc> } })._def.procedures;
  /** JSON Schema with descriptions dropped (the table may word things for agents). */
  const shapeOf = (schema: z.ZodType) =>
    JSON.parse(
      JSON.stringify(z.toJSONSchema(schema, { target: "draft-7", io: "input" }), (k, v) =>
        k === "description" ? undefined : v,
      ),
    );

  it("names real procedures of the right kind, with their exact input schemas", () => {
    for (const tool of TOOLS) {
      const proc = procedures[tool.path];
      expect(proc, tool.path).toBeDefined();
      expect(proc!._def.type, tool.path).toBe(tool.kind);
      const inputs = proc!._def.inputs;
      if (inputs.length === 0) {
        expect(Object.keys(tool.input.shape), tool.name).toEqual([]);
        continue;
      }
      expect(inputs.length, tool.path).toBe(1);
      const input = inputs[0]!;
      const object = input instanceof z.ZodOptional ? (input.unwrap() as z.ZodType) : input;
      expect(shapeOf(tool.input), tool.name).toEqual(shapeOf(object));
    }
  });

  it("keeps the SDK and zod out of the CLI bundle the other commands run", () => {
    const stamp = JSON.parse(readFileSync(path.join(ROOT, "cli/dist/yard.stamp.json"), "utf8")) as {
      inputs: Record<string, number>;
    };
    expect(
      Object.keys(stamp.inputs).filter((p) => /@modelcontextprotocol|[\\/]zod[\\/]|cli[\\/]mcp[\\/]/.test(p)),
    ).toEqual([]);
    const mcp = JSON.parse(readFileSync(path.join(ROOT, "cli/dist/yard-mcp.stamp.json"), "utf8")) as {
      inputs: Record<string, number>;
    };
    expect(Object.keys(mcp.inputs)).toEqual(expect.arrayContaining(["cli/mcp/server.ts", "cli/mcp/tools.ts"]));
  });
});
