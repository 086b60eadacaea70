"use client";
// "Panes" in the top bar, with how many panes need the user (the attention list), kept live from
// the event stream.
import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";
import { onConnectionChange, subscribeEvents } from "../lib/socket";
import { trpc } from "../lib/trpc";

export function PanesNavLink() {
  const [count, setCount] = useState(0);
  const pathname = usePathname();
  const current = pathname === "/panes" || pathname?.startsWith("/panes/");

  useEffect(() => {
    let live = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const load = () => {
      trpc.panes.attention
        .query()
        .then((r) => live && setCount(r.items.length))
        .catch(() => {});
    };
    const soon = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(load, 250);
    };
    const offPane = subscribeEvents("pane.*", soon);
    const offTask = subscribeEvents("task.*", soon);
    const offConn = onConnectionChange((up) => up && soon());
    load();
    return () => {
      live = false;
      if (timer) clearTimeout(timer);
      offPane();
      offTask();
      offConn();
    };
  }, []);

  return (
    <Link href="/panes" aria-current={current ? "page" : undefined} className={`flex items-center gap-1.5 hover:underline ${current ? "font-semibold" : ""}`}>
      Panes
      {count > 0 && (
        <span
          data-testid="attention-count"
          title={`${count} pane${count === 1 ? "" : "s"} need${count === 1 ? "s" : ""} you`}
          className="rounded-full bg-orange-500 px-1.5 text-xs font-semibold leading-5 text-white no-underline"
        >
          {count}
        </span>
      )}
    </Link>
  );
}
