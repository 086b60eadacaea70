// The MCP server behind `yard mcp`: registers every row of ./tools.ts as a tool on the SDK's
// McpServer and serves it over stdio. This file owns the wiring: how a tool call becomes a call
// of its tRPC procedure through the CLI's own client (cli/connection.ts: the same URL and token
// discovery, the same rules inside a pane), and how the answer becomes a tool result.
//
// Results: the same JSON document `yard --json` prints, as text content and as structuredContent.
// Errors: a tool error (isError) whose content is {"error":{code,message,details,retryable}},
// code, message and details being what the CLI prints (toCliError, cli/output.ts).
//
// Arguments are validated by the server, not here, so a bad value is refused with the server's
// BAD_PARAMS and its message, exactly as the CLI's would be. The SDK validates arguments against
// a tool's registered schema before the tool runs and answers a failure in its own words; so each
// tool registers a schema that accepts any object, carrying the row's schema (as JSON Schema)
// for tools/list, where the agent reads it.
//
// Built into its own bundle (cli/dist/yard-mcp.mjs, scripts/build-cli.mjs) that only `yard mcp`
// loads: the SDK and zod never slow down the CLI's other commands.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { ERROR_CODES } from "../../server/core/errors";
import { VERSION } from "../../server/version";
import { makeClient, resolveConnection } from "../connection";
import { toCliError } from "../output";
import { type Tool, TOOLS } from "./tools";

/** What a tool call gets back: the CLI's --json document, or its error document. */
async function callTool(tool: Tool, args: Record<string, unknown>, signal?: AbortSignal): Promise<CallToolResult> {
  try {
    // The connection is looked up on every call: this process lives as long as the agent's
    // session and may outlive a server restart (a new URL in server.json).
    const client = makeClient(resolveConnection());
    const input = tool.fill ? tool.fill(args) : args;
    let target: unknown = client;
    for (const key of tool.path.split(".")) target = (target as Record<string, unknown>)[key];
    const proc = target as {
      query(i: unknown, o: object): Promise<unknown>;
      mutate(i: unknown, o: object): Promise<unknown>;
    };
    const noInput = Object.keys(tool.input.shape).length === 0 && Object.keys(input).length === 0;
    const out = await (tool.kind === "query" ? proc.query : proc.mutate)(noInput ? undefined : input, { signal });
    const doc = tool.wrap ? { [tool.wrap]: out } : out;
    const structured =
      doc !== null && typeof doc === "object" && !Array.isArray(doc)
        ? (doc as Record<string, unknown>)
        : { result: doc };
    return { content: [{ type: "text", text: JSON.stringify(doc) }], structuredContent: structured };
  } catch (e) {
    const err = toCliError(e);
    const doc = { error: { ...err, retryable: ERROR_CODES[err.code].retryable } };
    return { content: [{ type: "text", text: JSON.stringify(doc) }], structuredContent: doc, isError: true };
  }
}

/** The row's input as JSON Schema, the way the SDK would list it (draft-07, the input side). */
export function jsonSchemaOf(tool: Tool): Record<string, unknown> {
  const { $schema: _, ...schema } = z.toJSONSchema(tool.input, { target: "draft-7", io: "input" }) as Record<
    string,
    unknown
  >;
  return schema;
}

function makeMcpServer(tools: Tool[] = TOOLS): McpServer {
  const server = new McpServer({ name: "switchyard", title: "Switchyard", version: VERSION });
  for (const tool of tools) {
    // Any object passes (keys and values unchanged); tools/list shows the row's schema.
    const inputSchema = z.looseObject({}).meta(jsonSchemaOf(tool));
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema,
        annotations: { readOnlyHint: tool.kind === "query", openWorldHint: false },
      },
      (args, extra) => callTool(tool, args, extra.signal),
    );
  }
  return server;
}

/**
 * Serves the tools on stdin/stdout until the client closes stdin. Nothing else may write to stdout.
 * @public loaded by `yard mcp` from its own bundle (a dynamic import knip cannot follow)
 */
export async function serveMcp(): Promise<void> {
  const server = makeMcpServer();
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    transport.onclose = resolve;
    process.stdin.once("end", () => void server.close().finally(resolve));
  });
  await server.connect(transport);
  await closed;
}
