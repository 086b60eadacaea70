// Driving real agents through tasks in tests: waiting on task and pane states, reading attention,
// and answering an agent's prompts the way a person would, with `yard pane send-keys`.
import type { adminClient } from "./client";
import { type TestServer, yard } from "./server";
import { waitFor } from "./wait";

export type Api = ReturnType<typeof adminClient>;

export const waitState = async (api: Api, id: string, until: string, timeoutMs = 90_000) => {
  try {
    return (await api.tasks.wait.query({ id, until, timeoutMs })).tasks[0]!;
  } catch (e) {
    throw new Error(`${(e as Error).message}\n${await describeTask(api, id)}`);
  }
};

/** What a stuck task's agent shows and did, for a failure message. */
export async function describeTask(api: Api, id: string): Promise<string> {
  const t = await api.tasks.get.query({ id });
  const screen = t.paneId
    ? await screenOf(api, t.paneId).catch((e: Error) => `(no screen: ${e.message})`)
    : "(no pane)";
  const events = t.paneId
    ? (await api.events.list.query({ paneId: t.paneId })).events.map(
        (e) => `${e.type} ${JSON.stringify(e.payload).slice(0, 200)}`,
      )
    : [];
  return [
    `task ${id}: ${t.state} ${JSON.stringify(t.evidence)}`,
    "--- screen ---",
    screen.replace(/\s+$/, ""),
    "--- pane events ---",
    ...events.slice(-40),
  ].join("\n");
}

/** The attention item for `paneId` once it has `reason`. */
export async function attentionFor(api: Api, paneId: string, reason: string, timeoutMs = 60_000) {
  return waitFor(
    async () => {
      const { items } = await api.panes.attention.query({ limit: 100 });
      const item = items.find((i) => i.paneId === paneId && i.reason === reason);
      return item ? { item, items } : null;
    },
    { timeoutMs, intervalMs: 100, what: `attention ${reason} for ${paneId}` },
  );
}

/** The pane's rendered screen. */
export async function screenOf(api: Api, paneId: string): Promise<string> {
  return (await api.panes.read.query({ id: paneId, mode: "screen" })).text;
}

/**
 * Answers a prompt with `yard pane send-keys` (text, then Enter when asked), the way a person at
 * the terminal would, and waits until `answered` holds. TUIs ignore keys that arrive while they
 * are still drawing a prompt; so when the prompt is still up after a moment, the same keys are
 * sent once more (never more: a stray Enter would land in the next prompt).
 */
export async function sendKeys(
  server: TestServer,
  api: Api,
  paneId: string,
  keys: { text?: string; enter?: boolean },
  answered: () => Promise<boolean>,
): Promise<void> {
  const send = async () => {
    const args = [
      "--json",
      "pane",
      "send-keys",
      paneId,
      ...(keys.text !== undefined ? [keys.text] : []),
      ...(keys.enter ? ["--enter"] : []),
    ];
    const r = await yard(server, args);
    if (r.code !== 0) throw new Error(`yard pane send-keys failed: ${r.stdout}${r.stderr}`);
  };
  await send();
  try {
    await waitFor(answered, { timeoutMs: 2500, intervalMs: 50, what: "the prompt to take the keys" });
  } catch {
    await send();
    await waitFor(answered, {
      timeoutMs: 20_000,
      intervalMs: 50,
      what: `the prompt to take the keys (screen:\n${await screenOf(api, paneId)})`,
    });
  }
}

/** Waits for the pane to block on a permission prompt, checks attention lists it, and accepts it. */
export async function acceptPermission(
  server: TestServer,
  api: Api,
  paneId: string,
  keys: { text?: string; enter?: boolean },
) {
  const { item } = await attentionFor(api, paneId, "blocked");
  const before = (await api.panes.get.query({ id: paneId })).lifecycle;
  await sendKeys(
    server,
    api,
    paneId,
    keys,
    async () => (await api.panes.get.query({ id: paneId })).lifecycle !== "blocked",
  );
  return { item, before };
}
