// The resources 2025 hosts subscribe to, on one connection to the server. Hosts share the connection,
// so each host's subscriptions are kept here: the server hears resources/subscribe for a URI once (its
// first subscriber) and resources/unsubscribe when its last subscriber leaves, and its
// notifications/resources/updated reach only the hosts subscribed to that URI.
//
// On a 2026-07-28 connection (a server without the host's revision) there is no resources/subscribe:
// the 2025 hosts' subscriptions and the list changes the server announces are one subscriptions/listen
// stream, opened again with the new filter when the URIs change (the new one before the old one
// closes, so no change is missed in between).
import { SUBSCRIPTION_ID_META_KEY, type SubscriptionFilter } from "@modelcontextprotocol/client";
import type { ServerCapabilities } from "@modelcontextprotocol/server";
import type { Upstream } from "./upstreams.js";

type Result = Record<string, unknown>;
type Subscription = Awaited<ReturnType<Upstream["client"]["listen"]>>;

/** The list changes a 2025 host hears unasked, where the server announces them. */
function listChangesOf(capabilities: ServerCapabilities | undefined): SubscriptionFilter {
  return {
    ...(capabilities?.tools?.listChanged ? { toolsListChanged: true } : {}),
    ...(capabilities?.prompts?.listChanged ? { promptsListChanged: true } : {}),
    ...(capabilities?.resources?.listChanged ? { resourcesListChanged: true } : {}),
  };
}

/** Whether an update of `uri` is for a subscription to `subscribed` (the URI, or a resource under it). */
const covers = (subscribed: string, uri: string) => uri === subscribed || uri.startsWith(subscribed);

export class Subscriptions {
  private readonly bySession = new Map<object, Set<string>>();
  private stream: Subscription | undefined;
  /** The filter of the open stream, as JSON. */
  private listening: string | undefined;
  /** The listen streams are opened and closed one after the other. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listens: boolean;

  constructor(private readonly upstream: Upstream) {
    this.listens = upstream.protocol === "2026-07-28";
  }

  /** A 2025 host connected over this connection: on 2026-07-28 it hears list changes through the stream. */
  attach(session: object): Promise<void> {
    if (!this.bySession.has(session)) this.bySession.set(session, new Set());
    return this.listens ? this.relisten() : Promise.resolve();
  }

  /** The host's resources/subscribe; `passOn` sends it to the server as the host sent it (2025 connections). */
  async subscribe(session: object, uri: string, passOn: () => Promise<Result>): Promise<Result> {
    const first = !this.subscribed().has(uri);
    const mine = this.bySession.get(session) ?? new Set<string>();
    if (this.listens) {
      const added = !mine.has(uri);
      mine.add(uri);
      this.bySession.set(session, mine);
      try {
        await this.relisten();
      } catch (error) {
        // The server would not listen for it: the host's subscription is not taken.
        if (added) mine.delete(uri);
        throw error;
      }
      return {};
    }
    const result = first ? await passOn() : {};
    mine.add(uri);
    this.bySession.set(session, mine);
    return result;
  }

  /** The host's resources/unsubscribe: the server hears it when no other host is subscribed to `uri`. */
  async unsubscribe(session: object, uri: string, passOn: () => Promise<Result>): Promise<Result> {
    this.bySession.get(session)?.delete(uri);
    if (this.listens) {
      await this.relisten();
      return {};
    }
    return this.subscribed().has(uri) ? {} : passOn();
  }

  /** The host went away: its subscriptions end (on a 2025 connection, the server is told of the URIs nobody else holds). */
  detach(session: object, unsubscribe: (uri: string) => Promise<unknown>): void {
    const mine = this.bySession.get(session) ?? new Set<string>();
    this.bySession.delete(session);
    if (this.listens) void this.relisten().catch(() => {});
    else for (const uri of mine) if (!this.subscribed().has(uri)) void unsubscribe(uri).catch(() => {});
  }

  /** Whether `session` is to hear `notification` (an update only where it subscribed to that resource). */
  wants(session: object, notification: { method: string; params?: Record<string, unknown> }): boolean {
    if (notification.method !== "notifications/resources/updated") return true;
    const uri = String(notification.params?.uri ?? "");
    return [...(this.bySession.get(session) ?? [])].some((subscribed) => covers(subscribed, uri));
  }

  /** The notification as a 2025 host reads it: without the id of the gateway's listen stream. */
  static forHost<N extends { params?: Record<string, unknown> }>(notification: N): N {
    const meta = notification.params?._meta as Record<string, unknown> | undefined;
    if (!meta || !(SUBSCRIPTION_ID_META_KEY in meta)) return notification;
    const { [SUBSCRIPTION_ID_META_KEY]: _stream, ...rest } = meta;
    const { _meta: _old, ...params } = notification.params!;
    return { ...notification, params: Object.keys(rest).length ? { ...params, _meta: rest } : params };
  }

  close(): void {
    this.bySession.clear();
    void this.relisten().catch(() => {});
  }

  private subscribed(): Set<string> {
    return new Set([...this.bySession.values()].flatMap((uris) => [...uris]));
  }

  /** Opens the stream for what the hosts now want, then closes the one it replaces. */
  private relisten(): Promise<void> {
    const next = this.queue.then(async () => {
      const uris = [...this.subscribed()];
      const filter: SubscriptionFilter = {
        ...listChangesOf(this.upstream.client.getServerCapabilities()),
        ...(uris.length ? { resourceSubscriptions: uris } : {}),
      };
      const wanted = this.bySession.size > 0 && Object.keys(filter).length > 0 ? JSON.stringify(filter) : undefined;
      if (wanted === this.listening) return;
      const old = this.stream;
      this.stream = wanted ? await this.upstream.client.listen(filter) : undefined;
      this.listening = wanted;
      await old?.close();
    });
    this.queue = next.catch(() => {});
    return next;
  }
}
