// The root layout: theme applied before first paint, the app icon, and the providers every page
// shares (data cache, live events, toasts, palette, shortcuts).
import type { Metadata } from "next";
import type { ReactNode } from "react";
import { Providers } from "../components/Providers";
import { THEME_SCRIPT } from "../lib/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Switchyard",
  description: "Run coding agents in parallel, each in its own worktree, and review their work.",
  icons: { icon: "/icon.svg" },
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant of ours (no user data): the theme is set before first paint */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-canvas text-fg antialiased">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
