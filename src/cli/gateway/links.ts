// Which host request a server's question belongs to. The gateway serves its host's requests by making
// its own to the server; a question the server sends while one runs belongs to that host request, so
// that it reaches the host about that call (a 2025 request related to it, or a 2026-07-28 round of it).
// On 2026-07-28 the question arrives inside the call's own async chain, and AsyncLocalStorage names it;
// a 2025-era server sends it as a request of its own, and the latest host request still open is taken.
import { AsyncLocalStorage } from "node:async_hooks";
import type { ClientCapabilities } from "@modelcontextprotocol/server";
import type { ServerQuestion } from "../../client/attached.js";
import type { ProtocolRevision } from "../../schema/types.js";
import type { Upstream } from "./upstreams.js";

export interface HostLink {
  /** The revision the host speaks on this request. */
  protocol: ProtocolRevision;
  /** What the host declared (on 2026-07-28, with this request). */
  capabilities: ClientCapabilities;
  /** Asks the host, about this request; resolves with its result. */
  ask(question: ServerQuestion, signal: AbortSignal): Promise<Record<string, unknown>>;
  /** Tells the host something about this request (a log message). */
  notify(notification: { method: string; params?: Record<string, unknown> }): Promise<void>;
  /** Aborts when the host stops waiting for this request (2025 eras: its cancel or request timeout). */
  signal?: AbortSignal;
  /** A question of this request waits for the person on the gateway's page: the host is kept waiting until the returned function is called. */
  personAnswering?(): () => void;
  /** A 2025 host's connection: the connection to the server that serves it, and its own key (for its subscriptions). */
  upstream?: Upstream;
  session?: object;
}

export class HostLinks {
  private readonly calls = new AsyncLocalStorage<HostLink>();
  private readonly open: HostLink[] = [];
  private readonly sessions: HostLink[] = [];

  /** Runs `serve` as host request `link`: questions asked meanwhile belong to it. */
  async within<T>(link: HostLink, serve: () => Promise<T>): Promise<T> {
    this.open.push(link);
    try {
      return await this.calls.run(link, serve);
    } finally {
      this.open.splice(this.open.lastIndexOf(link), 1);
    }
  }

  /** A 2025-era host connection, for what the server asks or says outside any call (roots/list at start, list changes). */
  addSession(link: HostLink): () => void {
    this.sessions.push(link);
    return () => {
      const at = this.sessions.indexOf(link);
      if (at >= 0) this.sessions.splice(at, 1);
    };
  }

  /** The host request a question belongs to: the call it runs in, else the latest open one, else the latest connection. */
  current(): HostLink | undefined {
    return this.calls.getStore() ?? this.open.at(-1) ?? this.sessions.at(-1);
  }

  /** Every 2025-era host connection (2026-07-28 hosts hear only about their own requests). */
  connected(): readonly HostLink[] {
    return this.sessions;
  }
}
