// Questions, answers and acknowledgements between a task's worker and whoever started it (an
// orchestrator pane or a person): the thread kept per task across restarts.
//
// - ask: the worker's question is recorded and moves its task to input_required (reducer event
//   `asked`), which wakes the orchestrator's `yard task wait` (settled includes input_required).
// - answer: typed to the worker through the submit gate (a follow-up) once the turn it asked in
//   has ended, and recorded as the answer to the open question. A refused submit records nothing.
// - ack: the parent acknowledges a finished round's result; until then the task stays in the
//   parent pane's attention as result_unacknowledged. A new round needs a new acknowledgement.
import type { z } from "zod";
import type { threadReply } from "../../wire/orchestration";
import { YardError } from "../errors";
import type { EventJournal } from "../events/journal";
import { newId } from "../ids";
import type { MessageRecord, MessageStore } from "../../stores/messages";
import { type TaskEvent, type TaskState, transition } from "./state";
import { authorOf } from "../authors";

/** States whose round has a result to acknowledge. */
export const ACKABLE_STATES = ["completed", "failed", "rejected"] as const;

interface ThreadTask {
  id: string;
  state: string;
  round: number;
  parentPaneId: string | null;
  resultAckedAt: Date | null;
}

export interface TaskMessagesDeps {
  store: MessageStore;
  journal: EventJournal;
  task: (taskId: string) => Promise<ThreadTask>;
  /** Applies a reducer event to the task (the engine's serialized apply). */
  apply: (taskId: string, event: TaskEvent) => Promise<unknown>;
  /** Types text to the task's worker through the submit gate (the engine's follow-up). */
  followUp: (taskId: string, text: string, opts: { stallMs?: number }) => Promise<unknown>;
  /** Resolves when the task's agent is ready for a prompt again (its turn ended), or after `timeoutMs`. */
  whenReady: (taskId: string, timeoutMs: number) => Promise<void>;
}

/** How long an answer waits for the worker to end the turn it asked in. */
const ANSWER_WAIT_MS = 60_000;

/** A task's question/answer thread (server/wire/orchestration.ts). */
export type Thread = z.infer<typeof threadReply>;

/** The prompt an answer reaches the worker as. */
function answerPrompt(question: string | null, answer: string): string {
  return question
    ? `Answer to your question ("${question.length > 300 ? `${question.slice(0, 300)}…` : question}"):\n\n${answer}`
    : answer;
}

export class TaskMessages {
  constructor(private readonly deps: TaskMessagesDeps) {}

  async ask(taskId: string, question: string, caller: { paneId: string | null }): Promise<MessageRecord> {
    const t = await this.deps.task(taskId);
    const id = newId("msg");
    const event: TaskEvent = { type: "asked", messageId: id, question };
    transition(t.state as TaskState, event); // CONFLICT before anything is written
    const m = await this.deps.store.add({
      id,
      taskId,
      author: authorOf(caller.paneId),
      kind: "question",
      body: question,
      replyTo: null,
      round: t.round,
    });
    await this.deps.apply(taskId, event);
    await this.deps.journal.append("task.question", {
      taskId,
      payload: { messageId: id, round: t.round, text: question.slice(0, 4000) },
    });
    return m;
  }

  async answer(
    taskId: string,
    answer: string,
    caller: { paneId: string | null },
    opts: { stallMs?: number } = {},
  ): Promise<MessageRecord> {
    const t = await this.deps.task(taskId);
    const open = await this.deps.store.openQuestion(taskId);
    // The worker asked mid-turn: the answer waits for that turn to end (busy is not a refusal then).
    const prompt = answerPrompt(open?.body ?? null, answer);
    const deadline = Date.now() + ANSWER_WAIT_MS;
    for (;;) {
      try {
        await this.deps.followUp(taskId, prompt, opts); // refused: nothing recorded
        break;
      } catch (e) {
        const busy = e instanceof YardError && (e.code === "PANE_BUSY" || e.code === "AGENT_NOT_READY");
        if (!busy || Date.now() >= deadline) throw e;
        await this.deps.whenReady(taskId, deadline - Date.now());
      }
    }
    const m = await this.deps.store.add({
      id: newId("msg"),
      taskId,
      author: authorOf(caller.paneId),
      kind: open ? "answer" : "information",
      body: answer,
      replyTo: open?.id ?? null,
      round: t.round,
    });
    await this.deps.journal.append("task.answer", {
      taskId,
      payload: { messageId: m.id, replyTo: m.replyTo, round: t.round, text: answer.slice(0, 4000) },
    });
    return m;
  }

  async acknowledge(
    taskId: string,
    caller: { paneId: string | null; admin: boolean },
  ): Promise<{ acknowledgedAt: string; alreadyAcknowledged: boolean }> {
    const t = await this.deps.task(taskId);
    if (!caller.admin && caller.paneId !== t.parentPaneId)
      throw new YardError("FORBIDDEN", "Only the pane that started the task (or the user) acknowledges its result", {
        taskId,
      });
    if (!(ACKABLE_STATES as readonly string[]).includes(t.state)) {
      throw new YardError("CONFLICT", `Only a finished round's result can be acknowledged; the task is ${t.state}`, {
        state: t.state,
      });
    }
    if (t.resultAckedAt) return { acknowledgedAt: t.resultAckedAt.toISOString(), alreadyAcknowledged: true };
    const at = new Date();
    await this.deps.store.acknowledge(taskId, at);
    await this.deps.journal.append("task.acknowledged", {
      taskId,
      payload: { round: t.round, by: authorOf(caller.paneId) },
    });
    return { acknowledgedAt: at.toISOString(), alreadyAcknowledged: false };
  }

  async thread(taskId: string): Promise<Thread> {
    const t = await this.deps.task(taskId);
    const messages = await this.deps.store.thread(taskId);
    const open = await this.deps.store.openQuestion(taskId);
    return {
      messages: messages.map((m) => ({ ...m, createdAt: m.createdAt.toISOString() })),
      openQuestion: open?.id ?? null,
      acknowledgedAt: t.resultAckedAt?.toISOString() ?? null,
    };
  }
}
