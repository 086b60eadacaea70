"use client";
// "Keyboard shortcuts": every shortcut the UI has, in one list (the README has the same table).
import { Modal } from "./ui";

const SHORTCUTS: Array<[string, string]> = [
  ["Ctrl K / ⌘ K", "Command palette: jump to a task, a project or run an action"],
  ["n", "New task"],
  ["?", "This list"],
  ["g b", "Go to the board"],
  ["g p", "Go to the panes"],
  ["g a", "Go to the agent profiles"],
  ["g w", "Go to the worktrees"],
  ["← ↑ → ↓", "Board: move between cards"],
  ["Home / End", "Board: first / last card of the column"],
  ["Enter", "Board: open the focused card"],
  ["1 / 2 / 3", "Task page: Terminal, Changes, Review tab"],
  ["Shift + click", "Diff: extend a comment to a range of lines"],
  ["Ctrl Enter", "Comment box: save the comment"],
  ["Escape", "Close a dialog or menu"],
];

export function ShortcutsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} onClose={onClose} title="Keyboard shortcuts">
      <table className="w-full text-sm">
        <tbody className="divide-y divide-line">
          {SHORTCUTS.map(([k, what]) => (
            <tr key={k}>
              <td className="w-40 whitespace-nowrap px-4 py-2">
                {k.split(" / ").map((part, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: static parts of a constant label
                  <span key={i}>
                    {i > 0 && <span className="mx-1 text-fg-muted">/</span>}
                    <kbd className="rounded-md border border-line bg-canvas-subtle px-1.5 py-0.5 font-mono text-xs shadow-[inset_0_-1px_0_var(--color-line)]">
                      {part}
                    </kbd>
                  </span>
                ))}
              </td>
              <td className="px-4 py-2 text-fg-muted">{what}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="border-t border-line px-4 py-2 text-xs text-fg-muted">
        In a terminal, every key goes to the agent; click outside it to use these.
      </p>
    </Modal>
  );
}
