// Theme choice (light, dark, or follow the system), kept in localStorage and applied as the
// `dark` class on <html>. THEME_SCRIPT runs before first paint so there is no flash.
export type ThemeChoice = "light" | "dark" | "system";
const THEME_KEY = "switchyard.theme";

export const THEME_SCRIPT = `(function(){try{var c=localStorage.getItem(${JSON.stringify(THEME_KEY)})||"system";var d=c==="dark"||(c==="system"&&matchMedia("(prefers-color-scheme: dark)").matches);document.documentElement.classList.toggle("dark",d);document.documentElement.dataset.theme=c}catch(e){}})()`;

export function readTheme(): ThemeChoice {
  const v = typeof localStorage !== "undefined" ? localStorage.getItem(THEME_KEY) : null;
  return v === "light" || v === "dark" ? v : "system";
}

export function applyTheme(choice: ThemeChoice): void {
  localStorage.setItem(THEME_KEY, choice);
  const dark = choice === "dark" || (choice === "system" && matchMedia("(prefers-color-scheme: dark)").matches);
  document.documentElement.classList.toggle("dark", dark);
  document.documentElement.dataset.theme = choice;
}
