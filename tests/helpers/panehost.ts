// Looking at a data dir's pane host from a test: its status over a control connection (the same
// secret and socket `yard stop --all` uses).
import { connectControl } from "../../server/panehost/connection";
import type { HostStatus } from "../../server/panehost/ops";

export async function hostStatus(home: string): Promise<HostStatus> {
  const { conn } = await connectControl(home);
  try {
    return await conn.request("status", {});
  } finally {
    conn.destroy();
  }
}
