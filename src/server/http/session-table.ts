// The 2025-era sessions of one fetch handler: opened at initialize, found by Mcp-Session-Id, closed at
// DELETE, expiry or shutdown, and in a fleet taken over from a member that died (or the request passed to
// the member that holds the session). Bounded: one whose client went away without DELETE expires after
// `idleMs` with nothing open or pending on it (one sweep timer, started with the first session, checks
// them all), and at most `maxSessions` exist at once.
import type { JSONRPCMessage, McpServer, Server as McpLowLevelServer } from "@modelcontextprotocol/server";
import { TrackedTransport, type Message, type Session } from "../fleet/session.js";
import { unref } from "../../common/unref.js";
import type { ServerFactory } from "./fetch-options.js";
import { jsonError } from "./responses.js";
import type { ServingFleet } from "./serving-hooks.js";

/** An answer on an adopted session to a request its dead member sent (its question is asked again under a new id). */
const LATE_ANSWER =
  "Dropped an answer to a request this instance did not send: it was sent by the instance that held the session before it stopped, and any question still needed was asked again under a new id";

export interface SessionTableOptions {
  /** Makes a session's server. */
  build: ServerFactory;
  newSessionId: () => string;
  idleMs: number;
  maxSessions: number;
  fleet: ServingFleet | undefined;
  onerror: (error: Error) => void;
  /** What a request naming a session not held here is told. */
  notFound: string;
}

export class SessionTable {
  /** Initialized sessions by id. */
  private readonly byId = new Map<string, Session>();
  /** Every session not yet closed, initialized or still answering its initialize. */
  private readonly live = new Set<Session>();
  /** Sessions being made (factory and connect) before they join `live`. */
  private starting = 0;
  private sweep: ReturnType<typeof setInterval> | undefined;
  private closed = false;

  constructor(private readonly options: SessionTableOptions) {}

  /** Initialized sessions held now. */
  get count(): number {
    return this.byId.size;
  }

  find(id: string): Session | undefined {
    return this.byId.get(id);
  }

  /**
   * The session a 2025-era request is for: the one its Mcp-Session-Id names (here, or taken over in a
   * fleet), or a new one for an initialize; else the answer refusing the request (404, 400, 503).
   */
  async forRequest(request: Request, owner: string | undefined, parsed: unknown): Promise<Session | Response> {
    const { fleet, notFound } = this.options;
    const sid = request.headers.get("mcp-session-id") ?? undefined;
    let session = sid ? this.byId.get(sid) : undefined;
    // Another user's session id is answered like an unknown one: it does not say the session exists.
    if (session && session.owner !== owner) return jsonError(404, -32001, notFound);
    if (!session && sid && fleet) {
      // maxSessions applies only if this member must adopt the session: passing a request on opens none.
      const found = await this.takeOver(request, sid, owner, parsed);
      if (found instanceof Response) return found;
      session = found;
    }
    if (session) {
      if (fleet && sid) fleet.sessions.used(sid, session);
      return session;
    }
    if (sid) return jsonError(404, -32001, notFound);
    if (request.method !== "POST") return jsonError(400, -32000, "Missing session id");
    if (this.closed || !this.hasRoom()) return this.busy(parsed);
    session = await this.open(owner, parsed);
    if (!request.signal?.aborted) return session;
    void this.close(session);
    return jsonError(499, -32000, "Client closed the request");
  }

  /** A new session; in a fleet its id is fixed first, since its event store is namespaced by it (an adopted one keeps its recorded id). */
  async open(owner: string | undefined, initialize?: unknown, adoptedId?: string): Promise<Session> {
    const id = adoptedId ?? this.options.newSessionId();
    const fleetSessions = this.options.fleet?.sessions;
    const transport: TrackedTransport = new TrackedTransport({
      sessionIdGenerator: () => id,
      onsessioninitialized: async (sid) => {
        this.byId.set(sid, session);
        // A new session's record exists before its client learns its id.
        if (fleetSessions && adoptedId === undefined) await fleetSessions.started(sid, session);
      },
      onsessionclosed: () => void this.close(session),
      ...(fleetSessions && { eventStore: fleetSessions.eventStoreFor(id) }),
    });
    if (fleetSessions) transport.activity.calls = fleetSessions.callObserver(id, transport);
    const session: Session = { transport, server: await this.connect(transport), closed: false, owner, initialize };
    this.live.add(session);
    this.startSweep();
    if (adoptedId !== undefined) transport.requestIds = this.options.fleet?.requestIds();
    this.watch(session);
    return session;
  }

  /** Closes a session here; `ended` (DELETE, expiry) also forgets it in the fleet, while a member shutting down leaves it for another. */
  close(session: Session, ended = true): Promise<void> {
    if (session.closed) return Promise.resolve();
    session.closed = true;
    this.live.delete(session);
    const id = session.transport.sessionId;
    if (id !== undefined && this.byId.get(id) === session) {
      this.byId.delete(id);
      if (ended) this.options.fleet?.sessions.ended(id);
    }
    // McpServer.close() closes the transport too; closing it again is a no-op.
    return Promise.allSettled([session.server.close(), session.transport.close()]).then(() => undefined);
  }

  /** Closes every session and opens no more; in a fleet their records stay, for another member to adopt. */
  async closeAll(): Promise<void> {
    this.closed = true;
    if (this.sweep) clearInterval(this.sweep);
    this.sweep = undefined;
    await Promise.allSettled([...this.live].map((session) => this.close(session, false)));
  }

  /** A server made and connected to `transport`, counted as starting meanwhile (both closed if it fails). */
  private async connect(transport: TrackedTransport): Promise<McpServer | McpLowLevelServer> {
    let server: McpServer | McpLowLevelServer | undefined;
    this.starting++;
    try {
      server = await this.options.build({ era: "legacy" });
      await server.connect(transport);
      return server;
    } catch (error) {
      await Promise.allSettled([server?.close(), transport.close()]);
      throw error;
    } finally {
      this.starting--;
    }
  }

  /**
   * Wraps the handlers connect installed (public setters): sees every message that arrives, and
   * forgets the session however its transport closes.
   */
  private watch(session: Session): void {
    const { transport } = session;
    const onmessage = transport.onmessage;
    transport.onmessage = (message, extra) => {
      const m = transport.requestIds ? transport.requestIds.inbound(message as Message) : (message as Message);
      if (m === undefined) return void this.options.onerror(new Error(LATE_ANSWER));
      transport.activity.inbound(m);
      onmessage?.(m as JSONRPCMessage, extra);
    };
    const onclose = transport.onclose;
    transport.onclose = () => {
      void this.close(session);
      onclose?.();
    };
  }

  /**
   * A session this member does not hold: adopted here, or the request passed to its live member (a
   * Response), or undefined (unknown: 404). A member that does not answer is passed over once its
   * heartbeat has expired; a request passed on once is answered where it lands.
   */
  private async takeOver(
    request: Request,
    sid: string,
    owner: string | undefined,
    parsed: unknown,
  ): Promise<Session | Response | undefined> {
    const fleet = this.options.fleet!;
    const open = (id: string, recordedOwner: string | undefined) => this.open(recordedOwner, undefined, id);
    let unreachable: string | undefined;
    for (let hop = 0; hop < 3; hop++) {
      // Adopted here meanwhile, by a concurrent request.
      const here = this.byId.get(sid);
      if (here) return here.owner === owner ? here : undefined;
      const found = await fleet.sessions.lookup(sid, owner, open, () => this.hasRoom(), unreachable);
      if (found.kind === "adopted") return found.session;
      if (found.kind === "full") return this.busy(parsed);
      if (found.kind === "unknown" || (found.kind === "elsewhere" && fleet.forwarded(request))) return undefined;
      if (found.kind !== "elsewhere") break; // unavailable
      const answer = await fleet.forward(request, found.url, parsed);
      if (answer) return answer;
      unreachable = found.instance;
    }
    const message = "The server instance holding this session is not answering; try again shortly";
    return jsonError(503, -32000, message, null, { "retry-after": "1" });
  }

  private hasRoom(): boolean {
    return this.live.size + this.starting < this.options.maxSessions;
  }

  private busy(parsed: unknown): Response {
    const id = (parsed as { id?: unknown } | undefined)?.id;
    const message = `Server busy: it holds its limit of ${this.options.maxSessions} sessions; try again later`;
    return jsonError(503, -32000, message, typeof id === "string" || typeof id === "number" ? id : null);
  }

  /** One sweep for all sessions, at half the idle time (at most a minute), started with the first session. */
  private startSweep(): void {
    const { idleMs } = this.options;
    if (this.sweep || !Number.isFinite(idleMs) || this.closed) return;
    this.sweep = setInterval(
      () => {
        const now = Date.now();
        for (const session of this.byId.values()) {
          const { activity } = session.transport;
          if (!activity.busy && now - activity.lastActive >= idleMs) void this.close(session);
        }
      },
      Math.min(60_000, Math.max(10, Math.floor(idleMs / 2))),
    );
    unref(this.sweep); // a sweep never keeps a process alive
  }
}
