// Looking at a data dir's pane host from a test: its status over a control connection (the same
// secret and socket `yard stop --all` uses).
import { connectControl } from "../../server/panehost/protocol";

export interface HostStatus {
  hostPid: number;
  serverPid: number | null;
  running: number;
  mirrors: number;
  undelivered: number;
  hooksQueued: number;
  queue: Array<{ paneId: string; kind: "hook" | "exit"; event?: string; exitCode?: number | null }>;
  serving: { url: string; host: string; port: number } | null;
}

export async function hostStatus(home: string): Promise<HostStatus> {
  const { conn } = await connectControl(home);
  try {
    return await conn.request<HostStatus>("status");
  } finally {
    conn.destroy();
  }
}
