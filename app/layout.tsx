import type { Metadata } from "next";
import type { ReactNode } from "react";
import { THEME_SCRIPT } from "../lib/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: "Switchyard",
  description: "Run coding agents in parallel, each in its own worktree, and review their work.",
};

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en" suppressHydrationWarning>
      <head>
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body className="min-h-screen bg-white text-gray-900 antialiased dark:bg-[#0d1117] dark:text-gray-100">{children}</body>
    </html>
  );
}
