// Opt-in browser notifications for task outcomes: which kinds (needs input / failed / completed)
// the user chose, kept in localStorage, and showing one when the tab is in the background.
export type NotifyKind = "input" | "failed" | "completed";
const KEY = "switchyard.notify";

export function readNotify(): Record<NotifyKind, boolean> {
  try {
    const v = JSON.parse(localStorage.getItem(KEY) ?? "{}") as Partial<Record<NotifyKind, boolean>>;
    return { input: !!v.input, failed: !!v.failed, completed: !!v.completed };
  } catch {
    return { input: false, failed: false, completed: false };
  }
}

export function writeNotify(v: Record<NotifyKind, boolean>) {
  localStorage.setItem(KEY, JSON.stringify(v));
}

export function kindOfState(state: string): NotifyKind | null {
  if (state === "input_required") return "input";
  if (state === "failed") return "failed";
  if (state === "completed") return "completed";
  return null;
}

export function notify(kind: NotifyKind, title: string, body: string, href: string) {
  if (typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (!readNotify()[kind]) return;
  try {
    const n = new Notification(title, { body, tag: href });
    n.onclick = () => {
      window.focus();
      window.location.assign(href);
    };
  } catch {
    /* some browsers only allow notifications from a service worker */
  }
}
