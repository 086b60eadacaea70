"use client";
// Light / dark / system switch in the top bar.
import { useEffect, useState } from "react";
import { applyTheme, readTheme, type ThemeChoice } from "../lib/theme";

const CHOICES: Array<{ value: ThemeChoice; label: string; icon: string }> = [
  { value: "light", label: "Light theme", icon: "☀" },
  { value: "dark", label: "Dark theme", icon: "☾" },
  { value: "system", label: "Follow system theme", icon: "◐" },
];

export function ThemeToggle() {
  const [choice, setChoice] = useState<ThemeChoice>("system");
  useEffect(() => {
    setChoice(readTheme());
    const mq = matchMedia("(prefers-color-scheme: dark)");
    const onChange = () => readTheme() === "system" && applyTheme("system");
    mq.addEventListener("change", onChange);
    return () => mq.removeEventListener("change", onChange);
  }, []);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a segmented control of buttons, not a form fieldset
    <div role="group" aria-label="Theme" className="flex h-8 overflow-hidden rounded-md border border-line bg-btn">
      {CHOICES.map((c) => (
        <button
          key={c.value}
          type="button"
          title={c.label}
          aria-label={c.label}
          aria-pressed={choice === c.value}
          data-theme-choice={c.value}
          onClick={() => {
            applyTheme(c.value);
            setChoice(c.value);
          }}
          className={`w-8 text-sm ${choice === c.value ? "bg-neutral-muted text-fg" : "text-fg-muted hover:bg-btn-hover hover:text-fg"}`}
        >
          {c.icon}
        </button>
      ))}
    </div>
  );
}
