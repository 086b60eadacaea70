// Reading an agent's rendered screen: which start-up dialog it waits at (a screen that needs a
// human before the agent is ready: workspace trust, API-key approval, login, theme/onboarding,
// the bypass-permissions warning, an update prompt, Codex's hook review), whether its input box
// is up with no dialog (ready), which failed-turn lines it shows, and whether it is retrying an
// API call. Pure: screen text in, a reading out. The patterns come from screens captured from the
// pinned CLIs (fixtures/screens/, table-tested in startup-dialogs.test.ts).
import type { AgentKind } from "./kinds";

interface ScreenDialog {
  /** trust | api_key | login | theme | onboarding | bypass_permissions | update | hooks_review | approval_mode */
  kind: string;
  /** one line for a card or an attention row */
  title: string;
  /** the dialog's text as rendered (decoration dropped), for the human and for evidence */
  text: string;
  /** how to answer it from the terminal */
  answer: string;
}

export interface ScreenReading {
  dialog: ScreenDialog | null;
  /** the input box is up and no dialog is showing (Codex keeps it up while it works: read this before the first prompt) */
  ready: boolean;
  /** lines that say a turn failed (an API error), in screen order */
  errors: string[];
  /** the agent is retrying a failed API call: the line that says so */
  retrying: string | null;
}

interface DialogRule {
  kind: string;
  /** every one must match the screen */
  match: RegExp[];
  title: string;
  answer: string;
}

const CLAUDE_DIALOGS: DialogRule[] = [
  {
    kind: "trust",
    match: [/Is this a project you created or one you trust\?|Do you trust the files in this folder\?/],
    title: "Claude Code asks whether you trust this folder",
    answer:
      "choose 'Yes, I trust this folder' (Down, then Enter); the project setting 'Let agents work in this repository without the trust prompt' answers it for you",
  },
  {
    kind: "api_key",
    match: [/Detected a custom API key in your environment/, /Do you want to use this API key\?/],
    title: "Claude Code asks whether to use the API key in its environment",
    answer: "choose 'Yes' (Up, then Enter) to use ANTHROPIC_API_KEY",
  },
  {
    kind: "theme",
    match: [/Choose the text style that looks best with your terminal/],
    title: "Claude Code's first-run setup: pick a text style",
    answer: "press Enter to keep the default",
  },
  {
    kind: "onboarding",
    match: [/Security notes:/, /Press Enter to continue/],
    title: "Claude Code's first-run setup: security notes",
    answer: "press Enter to continue",
  },
  {
    kind: "bypass_permissions",
    match: [/running in Bypass Permissions mode/],
    title: "Claude Code warns about Bypass Permissions mode",
    answer: "choose 'Yes, I accept' (Down, then Enter), or remove --dangerously-skip-permissions from the profile",
  },
  {
    // Needs Anthropic's servers; not reachable offline, so this screen is not among the fixtures.
    kind: "login",
    match: [/Select login method/],
    title: "Claude Code asks you to log in",
    answer: "log in in the terminal, or give the profile an ANTHROPIC_API_KEY",
  },
  {
    // Not captured (the pinned CLI runs with its auto-updater off); matched by its wording.
    kind: "update",
    match: [/(?:new version|update) (?:of Claude Code )?is available/i, /(?:update now|install it)\?/i],
    title: "Claude Code offers an update",
    answer: "answer the update prompt in the terminal",
  },
];

const CODEX_DIALOGS: DialogRule[] = [
  {
    kind: "trust",
    match: [/Trust this folder\?|Do you trust the contents of this directory\?/],
    title: "Codex asks whether you trust this folder",
    answer:
      "press Enter on '1. Trust and continue'; the project setting 'Let agents work in this repository without the trust prompt' answers it for you",
  },
  {
    kind: "approval_mode",
    match: [/work in this folder without asking for approval\?/i],
    title: "Codex asks how much it may do without approval",
    answer: "pick an option in the terminal",
  },
  {
    kind: "hooks_review",
    match: [/Hooks need review/, /Trust all and continue/],
    title: "Codex asks you to review hooks",
    answer: "choose '2. Trust all and continue' (Down, then Enter) to let Switchyard's hooks run",
  },
  {
    kind: "login",
    match: [/Sign in with ChatGPT|Choose how you want to use Codex/],
    title: "Codex asks you to sign in",
    answer: "sign in in the terminal, or give the profile an OPENAI_API_KEY",
  },
  {
    kind: "update",
    match: [/Update available!?/i, /(?:update now|skip)/i, /Press enter to continue|enter to confirm/i],
    title: "Codex offers an update",
    answer: "answer the update prompt in the terminal",
  },
];

const RULES: Record<AgentKind, DialogRule[]> = { claude: CLAUDE_DIALOGS, codex: CODEX_DIALOGS };

/** Lines made only of drawing characters (box rules, block and braille art, dots) carry no text. */
const DECORATION = /^[\s\u2500-\u259F\u2800-\u28FF.·*░▒▓█▀▄▌▐▖▗▘▙▚▛▜▝▞▟╌]*$/;
const MAX_DIALOG_LINES = 40;

/** The screen's text without decoration lines and trailing blanks, one trimmed line each. */
export function dialogText(screen: string): string {
  const lines = screen.split("\n").map((l) => l.replace(/\s+$/, ""));
  const kept = lines.filter((l) => l.trim() && !DECORATION.test(l)).map((l) => l.trim());
  return kept.slice(0, MAX_DIALOG_LINES).join("\n");
}

function findDialog(agent: AgentKind, screen: string): ScreenDialog | null {
  for (const rule of RULES[agent]) {
    if (rule.match.every((re) => re.test(screen))) {
      return { kind: rule.kind, title: rule.title, text: dialogText(screen), answer: rule.answer };
    }
  }
  return null;
}

function isReady(agent: AgentKind, screen: string): boolean {
  if (agent === "claude") {
    // The input box between two rules, and the mode/shortcuts footer under it.
    return /^❯\s/m.test(screen) && /(?:\? for shortcuts|shift\+tab to cycle)/.test(screen);
  }
  // Codex's quiet splash shows an input box and "? for shortcuts" too, before any dialog; only the
  // full footer ("← for agents · ? for shortcuts", under the model · cwd line) means it is up.
  return /^›\s/m.test(screen) && /·\s*\?\s*for shortcuts/.test(screen) && !/^\s*loading\s*$/m.test(screen);
}

function failedTurnLines(agent: AgentKind, screen: string): string[] {
  const out: string[] = [];
  for (const raw of screen.split("\n")) {
    const line = raw.trim();
    if (agent === "codex") {
      // `■ {"error":…}` ends a failed turn; `■ Conversation interrupted` is the user's Esc.
      if (/^■\s+\S/.test(line) && !/interrupted/i.test(line)) out.push(line);
    } else if (/^●\s+API Error:/.test(line)) {
      out.push(line.replace(/^●\s+/, ""));
    }
  }
  return out;
}

/**
 * Claude's retry status: `<error> · retrying in <wait> · attempt N/M`, where the wait counts down
 * as `18s`, `1m 5s`, `2h 3m 4s` or, from five minutes, `7m` (a rate limit adds `(resets …)`), and
 * once it is over, while the retried request is under way, `retrying…`. A reader that knew only
 * `retrying in Ns` lost the note for the whole of every retried request.
 */
const CLAUDE_RETRYING =
  /\bretrying(?:…|\.\.\.| in \d+\s*[dhms](?:\s*\d+\s*[dhms])*(?:\s*\([^)]*\))?)\s*·\s*attempt \d+\s*\/\s*\d+/;
/** Codex's: `Reconnecting... N/M`. */
const CODEX_RETRYING = /Reconnecting\.\.\.\s*\d+\s*\/\s*\d+/;

/**
 * The status, as the whole line(s) it is on. Searched for unanchored and then widened to its
 * lines: a `^.*…` pattern backtracks over every line of the screen (it was the costliest
 * regular expression of a whole test run).
 */
function retryingLine(agent: AgentKind, screen: string): string | null {
  const m = (agent === "claude" ? CLAUDE_RETRYING : CODEX_RETRYING).exec(screen);
  if (!m) return null;
  const end = screen.indexOf("\n", m.index + m[0].length);
  const line = screen.slice(screen.lastIndexOf("\n", m.index) + 1, end < 0 ? undefined : end);
  return line.trim().replace(/^[✻✽✶✳✢·•◦*]\s*/u, "");
}

export function readScreen(agent: AgentKind, screen: string): ScreenReading {
  const dialog = findDialog(agent, screen);
  return {
    dialog,
    ready: dialog === null && isReady(agent, screen),
    errors: failedTurnLines(agent, screen),
    retrying: retryingLine(agent, screen),
  };
}
