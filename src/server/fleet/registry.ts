// What a fleet's members tell each other through the store: a record per 2025-era session (who may
// use it, the client's initialize request, which member holds it), a heartbeat per member, the calls
// in flight per session, and a lock per adoption so two members never both take over one session.
import { randomBytes } from "node:crypto";
import type { JSONRPCMessage, RequestId } from "@modelcontextprotocol/server";
import type { FleetStore } from "../../store/types.js";

export interface SessionRecord {
  /** With auth: issuer and subject of who opened it. */
  owner?: string;
  /** The member holding it. */
  instance: string;
  /** The client's initialize request, replayed on the member that adopts the session. */
  initialize: unknown;
}

/** A member's heartbeat lives this long; it is written every HEARTBEAT_EVERY_MS. */
export const HEARTBEAT_TTL_MS = 3000;
export const HEARTBEAT_EVERY_MS = 1000;
/** A session record is rewritten at most this often while the session is used. */
export const RECORD_REFRESH_MS = 5000;
/** The JSON-RPC error a call gets when the member running it died and no other can finish it (see docs/server/survive-a-member-dying.md). */
export const LOST_CALL_CODE = -32000;

const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const INSTANCE = /^[A-Za-z0-9._-]{1,64}$/;
/** Session ids this server hands out; anything else a client sends is unknown without asking the store. */
export const isSessionId = (id: string) => SESSION_ID.test(id);

const encodeId = (id: RequestId) => Buffer.from(JSON.stringify(id)).toString("base64url");
const parseJson = <T>(text: string | undefined): T | undefined => {
  try {
    return text === undefined ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
};

export class FleetRegistry {
  readonly instance: string;
  /** This process's life under that name: a member restarted under the same name still sees its predecessor's calls as lost. */
  private readonly incarnation = randomBytes(8).toString("hex");
  private beat?: NodeJS.Timeout;

  constructor(
    readonly store: FleetStore,
    instance: string | undefined,
    private readonly recordTtlMs: number,
    private readonly onerror: (error: Error) => void,
  ) {
    if (instance !== undefined && (typeof instance !== "string" || !INSTANCE.test(instance)))
      throw new TypeError(`serveHttp: fleet.instance must be 1 to 64 letters, digits, '.', '_' or '-', got ${JSON.stringify(instance)}`);
    this.instance = instance ?? `member-${randomBytes(6).toString("hex")}`;
  }

  private background(work: Promise<unknown>): void {
    work.catch((error: unknown) => this.onerror(error as Error));
  }

  /** Writes this member's heartbeat now and every second until stop(); `url` is where other members reach it. */
  async start(url: URL): Promise<void> {
    const write = () =>
      this.store.set(`fleet:member:${this.instance}`, JSON.stringify({ url: url.href, at: Date.now() }), HEARTBEAT_TTL_MS);
    await write();
    this.beat = setInterval(() => this.background(write()), HEARTBEAT_EVERY_MS);
    this.beat.unref();
  }

  /** Stops the heartbeat and removes it, so other members adopt this one's sessions at once. */
  async stop(): Promise<void> {
    if (this.beat) clearInterval(this.beat);
    await this.store.delete(`fleet:member:${this.instance}`).catch((error: unknown) => this.onerror(error as Error));
  }

  private async heartbeat(instance: string): Promise<{ url: URL; at: unknown } | undefined> {
    const beat = parseJson<{ url?: unknown; at?: unknown }>(await this.store.get(`fleet:member:${instance}`));
    return typeof beat?.url === "string" && URL.canParse(beat.url) ? { url: new URL(beat.url), at: beat.at } : undefined;
  }

  /** The URL of a member whose heartbeat is live, or undefined. */
  async memberUrl(instance: string): Promise<URL | undefined> {
    return (await this.heartbeat(instance))?.url;
  }

  /**
   * Whether `instance` lives: a fresh heartbeat says so at once; an older one is watched until it is
   * written again (alive) or expires (gone: a killed member's last heartbeat outlives it by up to
   * HEARTBEAT_TTL_MS). With `unreachable`, the member did not answer: only its heartbeat expiring counts.
   */
  async holder(instance: string, unreachable = false): Promise<{ gone: true } | { gone: false; url: URL }> {
    const end = Date.now() + HEARTBEAT_TTL_MS + 500;
    const first = await this.heartbeat(instance);
    if (!first) return { gone: true };
    if (!unreachable && typeof first.at === "number" && Math.abs(Date.now() - first.at) < 2 * HEARTBEAT_EVERY_MS)
      return { gone: false, url: first.url };
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      const beat = await this.heartbeat(instance);
      if (!beat) return { gone: true };
      if ((!unreachable && beat.at !== first.at) || Date.now() >= end) return { gone: false, url: beat.url };
    }
  }

  async readSession(sessionId: string): Promise<SessionRecord | undefined> {
    const record = parseJson<SessionRecord>(await this.store.get(`fleet:session:${sessionId}`));
    return record && typeof record.instance === "string" && typeof record.initialize === "object" ? record : undefined;
  }

  async saveSession(sessionId: string, record: Omit<SessionRecord, "instance">): Promise<void> {
    await this.store.set(`fleet:session:${sessionId}`, JSON.stringify({ ...record, instance: this.instance }), this.recordTtlMs);
  }

  forgetSession(sessionId: string): void {
    this.background(this.store.delete(`fleet:session:${sessionId}`));
  }

  /** Takes the right to adopt `sessionId` from `holder`; false when another member took it first. */
  lockAdoption(sessionId: string, holder: string): Promise<boolean> {
    return this.store.add(`fleet:adopt:${sessionId}:${holder}`, this.instance, 30_000);
  }

  /** Records a request in flight: `call` names it across members; a journaled call carries its request, to be run again. */
  callStarted(sessionId: string, call: CallRecord): void {
    const value = JSON.stringify({ ...call, incarnation: this.incarnation });
    this.background(this.store.set(`fleet:call:${sessionId}:${encodeId(call.id)}`, value, this.recordTtlMs));
  }

  callEnded(sessionId: string, id: RequestId): void {
    this.background(this.store.delete(`fleet:call:${sessionId}:${encodeId(id)}`));
  }

  /** The calls another member was running on `streamId` of the session; each is forgotten once returned. */
  async lostCalls(sessionId: string, streamId: string): Promise<CallRecord[]> {
    const prefix = `fleet:call:${sessionId}:`;
    const lost: CallRecord[] = [];
    for (const key of await this.store.keys(prefix)) {
      const call = parseJson<Partial<CallRecord> & { incarnation?: string }>(await this.store.get(key));
      if (!call || call.streamId !== streamId || call.incarnation === this.incarnation) continue;
      if (typeof call.id !== "string" && typeof call.id !== "number") continue;
      await this.store.delete(key);
      lost.push({
        id: call.id,
        streamId,
        call: typeof call.call === "string" ? call.call : "",
        ...(call.journaled === true && { journaled: true, request: call.request }),
      });
    }
    return lost;
  }
}

/** A request in flight on a 2025-era session, as its record in the store keeps it. */
export interface CallRecord {
  id: RequestId;
  /** The SSE stream that carries its answer. */
  streamId: string;
  /** Its id across members (the key of its ctx.step values). */
  call: string;
  /** Its tool keeps its journal in a store every member reads: another member may run it again. */
  journaled?: true;
  /** The request as the client sent it (journaled calls only). */
  request?: unknown;
}

/** Why a call lost with its member could not be finished by the member that adopted its session. */
export type LostCallReason = "not-a-tool-call" | "no-journal" | "rerun-failed";

const WHY: Record<LostCallReason, string> = {
  "not-a-tool-call": "only tool calls are finished on another instance",
  "no-journal":
    "its tool keeps no journal that other instances can read (a tool of createElicitation does, given the fleet's shared store), so running it again could repeat its effects",
  "rerun-failed": "running it again on this instance failed",
};

/** The JSON-RPC error for a call lost with its member that cannot be finished, saying why. */
export function lostCallError(id: RequestId, why: LostCallReason): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: {
      code: LOST_CALL_CODE,
      message: `Request lost: the server instance that was handling it stopped before it answered, and the instance that took over the session cannot finish it: ${WHY[why]}. Whether its effects happened is unknown: retry only if it is safe to repeat.`,
      data: { reason: "instance-lost", why },
    },
  } as JSONRPCMessage;
}
