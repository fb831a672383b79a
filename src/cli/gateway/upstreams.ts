// The gateway's connections to the server: one for each era its hosts speak. The first (the primary) is
// opened at start, at the revision --protocol asks for (auto: the newest the server has). When that is
// 2026-07-28, a 2025 host is served over a second connection at a 2025 revision where the server has one
// (2025-11-25, else 2025-06-18), opened when the first 2025 host needs it and kept for those after it:
// the host then keeps resources/subscribe and the server's 2025-only tools (sampling from inside a tool)
// that a 2026-07-28 connection cannot carry. Between the two 2025 revisions the gateway translates as
// before (a 2025-06-18 host's questions in its own terms; URL mode and sampling with tools answered on
// the gateway's page), so the newer one is taken. Where the server has no 2025 revision, the primary
// serves the host, and subscriptions are translated (subscriptions.ts).
import type { Client, Implementation } from "@modelcontextprotocol/client";
import type { ElicitationHandle } from "../../client/attach.js";
import type { ProtocolRevision } from "../../schema/types.js";
import type { Host } from "../host.js";

/** What the host-facing side needs of one connection to the server. */
export interface Upstream {
  client: Client;
  elicitation: ElicitationHandle;
  /** The revision the connection runs on. */
  protocol: ProtocolRevision;
}

const asUpstream = (host: Host): Upstream => ({
  client: host.client,
  elicitation: host.elicitation,
  protocol: host.protocol as ProtocolRevision,
});

export class Upstreams {
  readonly primary: Upstream;
  private legacy: Promise<Upstream> | undefined;
  private readonly hosts: Host[] = [];

  private readonly listeners: Array<(upstream: Upstream) => void> = [];
  private closed = false;

  /**
   * @param open opens a connection pinned to a revision (undefined: no other revision is tried, as when
   * --protocol pins one). It rejects when the server does not have that revision.
   */
  constructor(
    private readonly primaryHost: Host,
    private readonly open: ((protocol: ProtocolRevision) => Promise<Host>) | undefined,
  ) {
    this.primary = asUpstream(primaryHost);
  }

  /** The server's name and version, as the primary connection has them (untrusted). */
  serverInfo(): Implementation | undefined {
    return this.primaryHost.serverInfo();
  }

  /** Calls `listener` with the primary now and with each connection opened later. */
  each(listener: (upstream: Upstream) => void): void {
    this.listeners.push(listener);
    listener(this.primary);
  }

  /** The connection for a host of revision `protocol`: the primary, or for a 2025 host in front of a 2026-07-28 one, a 2025 connection. */
  for(protocol: ProtocolRevision): Promise<Upstream> {
    if (!this.open || protocol === "2026-07-28" || this.primary.protocol !== "2026-07-28") return Promise.resolve(this.primary);
    return (this.legacy ??= this.openLegacy());
  }

  private async openLegacy(): Promise<Upstream> {
    for (const revision of ["2025-11-25", "2025-06-18"] as const) {
      let host: Host;
      try {
        host = await this.open!(revision);
      } catch {
        continue; // the server does not have it (or would not connect)
      }
      if (this.closed) {
        await host.close().catch(() => {});
        break;
      }
      this.hosts.push(host);
      const upstream = asUpstream(host);
      for (const listener of this.listeners) listener(upstream);
      return upstream;
    }
    return this.primary;
  }

  /** Closes the connections opened after the primary (the primary is the caller's). */
  async close(): Promise<void> {
    this.closed = true;
    for (const host of this.hosts) await host.close().catch(() => {});
  }
}
