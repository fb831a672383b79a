// serveHttp's 2025-era sessions in a fleet: records written as sessions start and are used, calls in
// flight recorded, and a session whose member died adopted here (at most one member wins each).
import { randomUUID } from "node:crypto";
import type { EventStore, RequestId } from "@modelcontextprotocol/server";
import type { FleetStore } from "../../store/types.js";
import type { CallObserver, Session, TrackedTransport } from "./session.js";
import { replayInitialize } from "./adopt.js";
import { closeLiveCall, openLiveCall } from "./calls.js";
import { currentRequest, currentStreamId, requestKey, rerunStarted, sessionEventStore, type LostCalls } from "./events.js";
import { FleetRegistry, isSessionId, lostCallError, RECORD_REFRESH_MS, type CallRecord } from "./registry.js";
import { dispatchAgain } from "./rerun.js";

/** What a request for a session this member does not hold leads to. */
export type Lookup =
  | { kind: "unknown" }
  | { kind: "adopted"; session: Session }
  | { kind: "elsewhere"; url: URL; instance: string }
  /** Its member did not answer but its heartbeat still lives: the client should try again shortly. */
  | { kind: "unavailable" }
  /** Its member is gone, and this one holds as many sessions as it may: it cannot adopt. */
  | { kind: "full" };

export interface FleetSessionsOptions {
  store: FleetStore;
  instance?: string;
  /** A session's record lives this long after its last use (serveHttp's sessionIdleMs, bounded). */
  recordTtlMs: number;
  onerror: (error: Error) => void;
}

export class FleetSessions {
  readonly registry: FleetRegistry;
  private readonly events: EventStore;
  /** Adoptions under way here, so concurrent requests for one session share one. */
  private readonly adopting = new Map<string, Promise<Lookup>>();

  private readonly onerror: (error: Error) => void;
  /** Each session's transport here, for finishing the calls its dead member left. */
  private readonly transports = new Map<string, TrackedTransport>();
  /** Calls being run again here (by session and request id): the ids they keep across members. */
  private readonly again = new Map<string, string>();

  constructor(options: FleetSessionsOptions) {
    this.onerror = options.onerror;
    this.registry = new FleetRegistry(options.store, options.instance, options.recordTtlMs, options.onerror);
    this.events = options.store.eventStore({ ttlMs: options.recordTtlMs });
    if (typeof this.events.getStreamIdForEventId !== "function")
      throw new TypeError("serveHttp: fleet.store.eventStore() must give an event store with getStreamIdForEventId.");
  }

  /** The event store of one session (every SSE event gets an id that any member can replay). */
  eventStoreFor(sessionId: string): EventStore {
    return sessionEventStore(this.events, sessionId, (streamId, answered) => this.finishLost(sessionId, streamId, answered));
  }

  /**
   * Records the requests a session's client sends while they run, with the stream that carries their
   * answer and the call's id across members; a tool that journals the call (see calls.ts) has the
   * request recorded too, so the member that adopts the session after this one died can finish it.
   */
  callObserver(sessionId: string, transport: TrackedTransport): CallObserver {
    this.transports.set(sessionId, transport);
    const recorded = new Set<RequestId>();
    return {
      started: (id, request) => {
        const streamId = currentStreamId();
        if (streamId === undefined) return; // no priming event (2025-06-18): the client cannot resume this stream anyway
        const key = callKey(sessionId, id);
        const again = this.again.get(key);
        this.again.delete(key);
        if (again !== undefined) rerunStarted();
        const record: CallRecord = { id, streamId, call: again ?? randomUUID() };
        recorded.add(id);
        this.registry.callStarted(sessionId, record);
        let journaled = false;
        openLiveCall(sessionId, id, {
          call: record.call,
          rerun: again !== undefined,
          journaled: () => {
            if (journaled || !recorded.has(id) || request.method !== "tools/call") return;
            journaled = true;
            this.registry.callStarted(sessionId, { ...record, journaled: true, request });
          },
        });
      },
      ended: (id) => {
        closeLiveCall(sessionId, id);
        if (recorded.delete(id)) this.registry.callEnded(sessionId, id);
      },
    };
  }

  /**
   * The calls another member was running on `streamId` when it died: journaled tool calls run again
   * here, on a new stream the resumed connection carries; the others are answered with an error that says why.
   */
  private async finishLost(sessionId: string, streamId: string, answered: ReadonlySet<string>): ReturnType<LostCalls> {
    // A call answered just before its member died (the answer stored, not its record's end) is finished.
    const lost = (await this.registry.lostCalls(sessionId, streamId)).filter((call) => !answered.has(requestKey(call.id)));
    const again = lost.filter((call) => call.journaled && isToolCall(call.request, call.id));
    const answers = lost
      .filter((call) => !again.includes(call))
      .map((call) => lostCallError(call.id, call.journaled ? "not-a-tool-call" : "no-journal"));
    const transport = this.transports.get(sessionId);
    if (again.length === 0 || !transport) return { answers: [...answers, ...again.map((call) => lostCallError(call.id, "rerun-failed"))] };
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    for (const call of again) this.again.set(callKey(sessionId, call.id), call.call);
    try {
      const stream = await dispatchAgain(
        transport,
        sessionId,
        again.map((call) => call.request),
        currentRequest(),
        gate,
      );
      return { answers, stream, started: release };
    } catch (error) {
      release();
      for (const call of again) this.again.delete(callKey(sessionId, call.id));
      this.onerror(error as Error);
      return { answers: [...answers, ...again.map((call) => lostCallError(call.id, "rerun-failed"))] };
    }
  }

  /** Writes the record of a session that started here. */
  started(sessionId: string, session: Session): Promise<void> {
    session.savedAt = Date.now();
    const record = { ...(session.owner !== undefined && { owner: session.owner }), initialize: session.initialize };
    return this.registry.saveSession(sessionId, record);
  }

  /** Keeps a used session's record alive, writing at most every few seconds. */
  used(sessionId: string, session: Session): void {
    if (session.savedAt !== undefined && Date.now() - session.savedAt < RECORD_REFRESH_MS) return;
    this.started(sessionId, session).catch(this.onerror);
  }

  /** A session that ended for good (DELETE, expiry): its record goes too. */
  ended(sessionId: string): void {
    this.transports.delete(sessionId);
    this.registry.forgetSession(sessionId);
  }

  /**
   * A request for `sessionId`, which this member does not hold: adopt it when its member is gone,
   * point at its member while that one lives, or call it unknown (no record, another owner's, or
   * another member won the adoption and is not reachable).
   */
  async lookup(
    sessionId: string,
    owner: string | undefined,
    open: (sessionId: string, owner: string | undefined) => Promise<Session>,
    /** Whether this member may open one more session (passing a request on needs none). */
    canAdopt: () => boolean,
    /** A member that did not answer when the request was passed to it. */
    unreachable?: string,
  ): Promise<Lookup> {
    if (!isSessionId(sessionId)) return { kind: "unknown" };
    // Another user's session id is answered like an unknown one, and never adopted for them.
    const record = await this.registry.readSession(sessionId);
    if (!record || record.owner !== owner) return { kind: "unknown" };
    // Requests that found the holder unreachable share one adoption; the others one look.
    const key = `${sessionId} ${unreachable ?? ""}`;
    let pending = this.adopting.get(key);
    if (!pending) {
      pending = this.adopt(sessionId, open, unreachable, canAdopt).finally(() => this.adopting.delete(key));
      this.adopting.set(key, pending);
    }
    return pending;
  }

  private async adopt(
    sessionId: string,
    open: (sessionId: string, owner: string | undefined) => Promise<Session>,
    unreachable: string | undefined,
    canAdopt: () => boolean,
  ): Promise<Lookup> {
    const record = await this.registry.readSession(sessionId);
    if (!record) return { kind: "unknown" };
    if (record.instance !== this.registry.instance) {
      const holder = await this.registry.holder(record.instance, unreachable === record.instance);
      if (!holder.gone)
        return unreachable === record.instance
          ? { kind: "unavailable" }
          : { kind: "elsewhere", url: holder.url, instance: record.instance };
    }
    if (!canAdopt()) return { kind: "full" };
    if (!(await this.registry.lockAdoption(sessionId, record.instance))) return this.wonElsewhere(sessionId, record.instance);
    const session = await open(sessionId, record.owner);
    session.initialize = record.initialize;
    try {
      await replayInitialize(session.transport, sessionId, record.initialize);
      await this.started(sessionId, session);
    } catch (error) {
      await Promise.allSettled([session.server.close(), session.transport.close()]);
      throw error;
    }
    return { kind: "adopted", session };
  }

  /** Another member is adopting the session: once its record names that member, requests go there. */
  private async wonElsewhere(sessionId: string, deadHolder: string): Promise<Lookup> {
    const end = Date.now() + 5000;
    while (Date.now() < end) {
      const record = await this.registry.readSession(sessionId);
      if (!record) return { kind: "unknown" };
      if (record.instance !== deadHolder) {
        const url = await this.registry.memberUrl(record.instance);
        return url ? { kind: "elsewhere", url, instance: record.instance } : { kind: "unknown" };
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return { kind: "unknown" };
  }
}

const callKey = (sessionId: string, id: RequestId) => `${sessionId}\u0000${typeof id}\u0000${String(id)}`;

/** A recorded tools/call request carrying the id it was recorded under. */
const isToolCall = (request: unknown, id: RequestId): boolean => {
  const r = request as { method?: unknown; id?: unknown; params?: unknown } | null;
  return r?.method === "tools/call" && r.id === id && typeof r.params === "object" && r.params !== null;
};
