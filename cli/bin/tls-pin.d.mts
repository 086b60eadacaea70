import type { PeerCertificate } from "node:tls";

export const PIN_ERROR: "ERR_YARD_SERVER_CERT";

export function pinnedTls(file: string): Promise<{
  ca: string[];
  allowPartialTrustChain: true;
  checkServerIdentity: (host: string, cert: PeerCertificate) => Error | undefined;
}>;
