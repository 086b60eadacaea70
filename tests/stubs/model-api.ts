// A small local stand-in for the model APIs the real agent CLIs call in the integration tests
// (the one fake the tests allow): Anthropic Messages (`POST /v1/messages`, streamed as SSE) for
// Claude Code, selected with ANTHROPIC_BASE_URL, and OpenAI Responses (`POST /v1/responses`,
// SSE) for Codex, selected by its provider's base_url. Replies are scripted per test:
//
//   const stub = await startModelStub();
//   stub.script("m-123", [{ tool: "Bash", input: { command: "yard task report ..." } }, { text: "Done." }]);
//
// A request belongs to the script whose marker (any unique string, e.g. one put in the task's
// objective) occurs in its body. Which step answers is derived from the conversation itself —
// the number of assistant turns already in the request's history — so retries, restarts and
// resumed sessions land on the right step without any state in the agent. Error steps answer
// `times` requests (default: every one) before the script moves past them. Requests without
// tools (Claude's and Codex's side requests, e.g. a title) get a short plain reply and never
// advance a script. `{{cwd}}` in a tool call's input becomes the agent's working directory, as
// the request states it. Every request is recorded for assertions.
import http from "node:http";
import type { AddressInfo } from "node:net";

type Step =
  /** An assistant text reply that ends the turn. */
  | { text: string }
  /** One tool call (Claude: tool name and input, e.g. Bash {command}; Codex: function name and arguments). */
  | { tool: string; input: Record<string, unknown>; text?: string }
  /** An HTTP error for the next `times` requests (default: all of them), each sent `delayMs` after the request (a slow, failing API). */
  | { error: { status: number; type?: string; message: string }; times?: number; delayMs?: number };

interface RecordedRequest {
  api: "anthropic" | "openai";
  path: string;
  body: Record<string, unknown>;
  /** The marker of the script that answered, or null (side request, or no script matched). */
  script: string | null;
  step: number | null;
  /** Assistant turns in the request's history. */
  history: number;
  /** The text of the request's whole body, for searching. */
  raw: string;
  /** The agent's working directory as the request states it, when it does. */
  cwd: string | null;
  at: number;
  /** What the stub answered: a step kind, "side" or "unmatched". */
  answered: string;
}

interface ScriptState {
  marker: string;
  steps: Step[];
  /** errors served per step index */
  errorsServed: Map<number, number>;
}

export interface ModelStub {
  url: string;
  port: number;
  /** Anthropic base URL (ANTHROPIC_BASE_URL). */
  anthropicBaseUrl: string;
  /** OpenAI-compatible base URL for a Codex model provider (ends in /v1). */
  openaiBaseUrl: string;
  requests: RecordedRequest[];
  script(marker: string, steps: Step[]): void;
  /** Requests answered by this script (side requests excluded). */
  requestsFor(marker: string): RecordedRequest[];
  /** Resolves with the first recorded request (past or future) that matches. */
  waitForRequest(pred: (r: RecordedRequest) => boolean, timeoutMs?: number): Promise<RecordedRequest>;
  /** Tokens the stub reports per reply: input, output. */
  usage: { input: number; output: number };
  close(): Promise<void>;
}

const USAGE = { input: 120, output: 30 };

export async function startModelStub(): Promise<ModelStub> {
  const scripts = new Map<string, ScriptState>();
  const requests: RecordedRequest[] = [];
  const waiters = new Set<{ pred: (r: RecordedRequest) => boolean; resolve: (r: RecordedRequest) => void }>();
  let seq = 0;

  const record = (r: RecordedRequest) => {
    requests.push(r);
    for (const w of [...waiters]) {
      if (w.pred(r)) {
        waiters.delete(w);
        w.resolve(r);
      }
    }
  };

  // A marker counts only as a whole word: "…-marker-1-2" must not match inside "…-marker-1-2g60sf"
  // (a task's branch slug, which the agent's cwd in its system prompt carries) or "…-marker-1-20".
  const findScript = (raw: string): ScriptState | null => {
    for (const s of scripts.values()) {
      const escaped = s.marker.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      if (new RegExp(`${escaped}(?![A-Za-z0-9])`).test(raw)) return s;
    }
    return null;
  };

  /** The step to answer with, skipping error steps that served their `times`. */
  const pickStep = (s: ScriptState, history: number): { index: number; step: Step } | null => {
    let index = history;
    // Each exhausted error step before the answer produced no assistant turn: skip past them.
    for (let i = 0; i <= index && i < s.steps.length; i++) {
      const st = s.steps[i]!;
      if ("error" in st && st.times !== undefined && (s.errorsServed.get(i) ?? 0) >= st.times) index++;
    }
    const step = s.steps[index];
    return step ? { index, step } : null;
  };

  const server = http.createServer((req, res) => {
    let data = "";
    req.setEncoding("utf8");
    req.on("data", (d) => (data += d));
    req.on("end", () => {
      const url = new URL(req.url ?? "/", "http://stub");
      let body: Record<string, unknown> = {};
      try {
        body = data ? (JSON.parse(data) as Record<string, unknown>) : {};
      } catch {
        body = {};
      }
      const p = url.pathname;
      if (req.method === "POST" && p.endsWith("/messages/count_tokens")) return json(res, 200, { input_tokens: 100 });
      if (req.method === "POST" && p.endsWith("/messages")) return anthropic(body, data, p, res);
      if (req.method === "POST" && p.endsWith("/responses")) return openai(body, data, p, res);
      if (req.method === "GET" && p.endsWith("/models"))
        return json(res, 200, { object: "list", data: [{ id: "stub-model", object: "model" }], models: [] });
      json(res, 404, { error: { type: "not_found_error", message: `stub: no route ${req.method} ${p}` } });
    });
  });

  function anthropic(body: Record<string, unknown>, raw: string, path: string, res: http.ServerResponse) {
    const messages = Array.isArray(body.messages) ? (body.messages as Array<{ role?: string }>) : [];
    const history = messages.filter((m) => m.role === "assistant").length;
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const s = hasTools ? findScript(raw) : null;
    const cwd = /Primary working directory: ([^\n"\\]+)/.exec(raw)?.[1]?.trim() ?? null;
    const rec: RecordedRequest = {
      api: "anthropic",
      path,
      body,
      script: s?.marker ?? null,
      step: null,
      history,
      raw,
      cwd,
      at: Date.now(),
      answered: "side",
    };
    if (!hasTools) {
      record(rec);
      return anthropicReply(res, body, { text: "Scripted side reply." });
    }
    if (!s) {
      rec.answered = "unmatched";
      record(rec);
      return json(res, 400, {
        type: "error",
        error: { type: "invalid_request_error", message: "stub: no script matches this conversation" },
      });
    }
    const picked = pickStep(s, history);
    rec.step = picked?.index ?? null;
    if (!picked) {
      rec.answered = "past_end";
      record(rec);
      return anthropicReply(res, body, { text: "(the script has no more steps)" });
    }
    const { step, index } = picked;
    if ("error" in step) {
      s.errorsServed.set(index, (s.errorsServed.get(index) ?? 0) + 1);
      rec.answered = "error";
      record(rec);
      const send = () =>
        json(res, step.error.status, {
          type: "error",
          error: { type: step.error.type ?? "invalid_request_error", message: step.error.message },
        });
      if (step.delayMs) return void setTimeout(send, step.delayMs);
      return send();
    }
    rec.answered = "tool" in step ? "tool" : "text";
    record(rec);
    anthropicReply(res, body, withCwd(step, cwd));
  }

  function anthropicReply(
    res: http.ServerResponse,
    body: Record<string, unknown>,
    step: { text: string } | { tool: string; input: Record<string, unknown>; text?: string },
  ) {
    const id = `msg_stub${++seq}`;
    const model = typeof body.model === "string" ? body.model : "claude-stub";
    const blocks: Array<Record<string, unknown>> = [];
    if ("tool" in step) {
      if (step.text) blocks.push({ type: "text", text: step.text });
      blocks.push({ type: "tool_use", id: `toolu_stub${seq}`, name: step.tool, input: step.input });
    } else {
      blocks.push({ type: "text", text: step.text });
    }
    const stopReason = "tool" in step ? "tool_use" : "end_turn";
    const usage = {
      input_tokens: USAGE.input,
      output_tokens: USAGE.output,
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    };
    if (body.stream !== true) {
      return json(res, 200, {
        id,
        type: "message",
        role: "assistant",
        model,
        content: blocks,
        stop_reason: stopReason,
        stop_sequence: null,
        usage,
      });
    }
    res.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      connection: "keep-alive",
      "request-id": `req_stub${seq}`,
    });
    const ev = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
    ev("message_start", {
      message: {
        id,
        type: "message",
        role: "assistant",
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...usage, output_tokens: 1 },
      },
    });
    blocks.forEach((b, index) => {
      if (b.type === "text") {
        ev("content_block_start", { index, content_block: { type: "text", text: "" } });
        ev("content_block_delta", { index, delta: { type: "text_delta", text: b.text } });
      } else {
        ev("content_block_start", { index, content_block: { type: "tool_use", id: b.id, name: b.name, input: {} } });
        ev("content_block_delta", {
          index,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(b.input) },
        });
      }
      ev("content_block_stop", { index });
    });
    ev("message_delta", {
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { output_tokens: USAGE.output },
    });
    ev("message_stop", {});
    res.end();
  }

  function openai(body: Record<string, unknown>, raw: string, path: string, res: http.ServerResponse) {
    const input = Array.isArray(body.input) ? (body.input as Array<{ type?: string; role?: string }>) : [];
    // An assistant turn is one model response: a function call, or an assistant message not
    // directly following a function call of the same response.
    let history = 0;
    let prev: string | null = null;
    for (const item of input) {
      const kind =
        item.type === "function_call"
          ? "call"
          : item.type === "message" && item.role === "assistant"
            ? "msg"
            : item.type === "reasoning"
              ? "skip"
              : "other";
      if (kind === "skip") continue;
      if (kind === "call" || (kind === "msg" && prev !== "msg-head")) history++;
      prev = kind === "msg" ? "msg-head" : kind;
    }
    const hasTools = Array.isArray(body.tools) && body.tools.length > 0;
    const s = hasTools ? findScript(raw) : null;
    const cwd = /<cwd>([^<]+)<\/cwd>/.exec(raw)?.[1]?.trim() ?? null;
    const rec: RecordedRequest = {
      api: "openai",
      path,
      body,
      script: s?.marker ?? null,
      step: null,
      history,
      raw,
      cwd,
      at: Date.now(),
      answered: "side",
    };
    if (!hasTools) {
      record(rec);
      return openaiReply(res, body, { text: "Scripted side reply" });
    }
    if (!s) {
      rec.answered = "unmatched";
      record(rec);
      return json(res, 400, {
        error: { type: "invalid_request_error", code: null, message: "stub: no script matches this conversation" },
      });
    }
    const picked = pickStep(s, history);
    rec.step = picked?.index ?? null;
    if (!picked) {
      rec.answered = "past_end";
      record(rec);
      return openaiReply(res, body, { text: "(the script has no more steps)" });
    }
    const { step, index } = picked;
    if ("error" in step) {
      s.errorsServed.set(index, (s.errorsServed.get(index) ?? 0) + 1);
      rec.answered = "error";
      record(rec);
      return json(res, step.error.status, {
        error: { type: step.error.type ?? "invalid_request_error", code: null, message: step.error.message },
      });
    }
    rec.answered = "tool" in step ? "tool" : "text";
    record(rec);
    openaiReply(res, body, withCwd(step, cwd));
  }

  function openaiReply(
    res: http.ServerResponse,
    body: Record<string, unknown>,
    step: { text: string } | { tool: string; input: Record<string, unknown>; text?: string },
  ) {
    const n = ++seq;
    const respId = `resp_stub${n}`;
    const model = typeof body.model === "string" ? body.model : "stub-model";
    const items: Array<Record<string, unknown>> = [];
    const text = "tool" in step ? step.text : step.text;
    if (text)
      items.push({
        type: "message",
        id: `msg_stub${n}`,
        role: "assistant",
        status: "completed",
        content: [{ type: "output_text", text, annotations: [] }],
      });
    if ("tool" in step)
      items.push({
        type: "function_call",
        id: `fc_stub${n}`,
        call_id: `call_stub${n}`,
        name: step.tool,
        arguments: JSON.stringify(step.input),
        status: "completed",
      });
    const usage = {
      input_tokens: USAGE.input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: USAGE.output,
      output_tokens_details: { reasoning_tokens: 0 },
      total_tokens: USAGE.input + USAGE.output,
    };
    res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
    let sn = 0;
    const ev = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sn++, ...data })}\n\n`);
    const base = {
      id: respId,
      object: "response",
      created_at: Math.floor(Date.now() / 1000),
      model,
      status: "in_progress",
      output: [] as unknown[],
    };
    ev("response.created", { response: base });
    ev("response.in_progress", { response: base });
    items.forEach((item, output_index) => {
      if (item.type === "message") {
        ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", content: [] } });
        ev("response.content_part.added", {
          output_index,
          item_id: item.id,
          content_index: 0,
          part: { type: "output_text", text: "", annotations: [] },
        });
        ev("response.output_text.delta", { output_index, item_id: item.id, content_index: 0, delta: text });
        ev("response.output_text.done", { output_index, item_id: item.id, content_index: 0, text });
        ev("response.content_part.done", {
          output_index,
          item_id: item.id,
          content_index: 0,
          part: { type: "output_text", text, annotations: [] },
        });
      } else {
        ev("response.output_item.added", { output_index, item: { ...item, status: "in_progress", arguments: "" } });
        ev("response.function_call_arguments.delta", { output_index, item_id: item.id, delta: item.arguments });
        ev("response.function_call_arguments.done", { output_index, item_id: item.id, arguments: item.arguments });
      }
      ev("response.output_item.done", { output_index, item });
    });
    ev("response.completed", { response: { ...base, status: "completed", output: items, usage } });
    res.end();
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    port,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    usage: { ...USAGE },
    script(marker, steps) {
      scripts.set(marker, { marker, steps, errorsServed: new Map() });
    },
    requestsFor(marker) {
      return requests.filter((r) => r.script === marker);
    },
    waitForRequest(pred, timeoutMs = 60_000) {
      const hit = requests.find(pred);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const w = {
          pred,
          resolve: (r: RecordedRequest) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.delete(w);
          reject(new Error(`stub: no matching request within ${timeoutMs} ms (${requests.length} recorded)`));
        }, timeoutMs);
        waiters.add(w);
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** `{{cwd}}` in a tool call's input, replaced by the agent's working directory. */
function withCwd<T extends { text: string } | { tool: string; input: Record<string, unknown>; text?: string }>(
  step: T,
  cwd: string | null,
): T {
  if (!("tool" in step) || cwd === null) return step;
  const sub = (v: unknown): unknown =>
    typeof v === "string"
      ? v.split("{{cwd}}").join(cwd)
      : Array.isArray(v)
        ? v.map(sub)
        : v && typeof v === "object"
          ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, sub(x)]))
          : v;
  return { ...step, input: sub(step.input) as Record<string, unknown> };
}

function json(res: http.ServerResponse, status: number, body: unknown) {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}
