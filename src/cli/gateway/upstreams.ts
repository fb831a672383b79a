// The gateway's connections to the server, one per revision its hosts speak. The first (the primary)
// is opened at start, at the revision --protocol asks for (auto: the newest the server has). A host
// that speaks an older revision is served over a connection at its own revision where the server has
// it, opened when that host first needs it and kept for the hosts of that revision after it: a 2025
// host then keeps resources/subscribe and the server's 2025-only tools (sampling from inside a tool)
// that a 2026-07-28 connection cannot carry. Where the server does not have it, the primary serves the
// host, and subscriptions are translated (subscriptions.ts).
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
  private readonly opened = new Map<ProtocolRevision, Promise<Upstream>>();
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
    this.opened.set(this.primary.protocol, Promise.resolve(this.primary));
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

  /**
   * The connection for a host of revision `protocol`: one at that revision where the server has it,
   * else the primary. A revision newer than the primary's is not tried: auto took the newest there is.
   */
  for(protocol: ProtocolRevision): Promise<Upstream> {
    const known = this.opened.get(protocol);
    if (known) return known;
    if (!this.open || protocol > this.primary.protocol) return Promise.resolve(this.primary);
    const opening = this.open(protocol).then(
      async (host) => {
        if (this.closed) {
          await host.close().catch(() => {});
          return this.primary;
        }
        this.hosts.push(host);
        const upstream = asUpstream(host);
        for (const listener of this.listeners) listener(upstream);
        return upstream;
      },
      // The server does not have it (or would not connect): the primary serves these hosts, translated.
      () => this.primary,
    );
    this.opened.set(protocol, opening);
    return opening;
  }

  /** Closes the connections opened after the primary (the primary is the caller's). */
  async close(): Promise<void> {
    this.closed = true;
    for (const host of this.hosts) await host.close().catch(() => {});
  }
}
