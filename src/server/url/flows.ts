// URL-mode flows: what a tool asked the person to do in a browser, keyed by an opaque id that is the
// only thing the URL carries. A flow ends once (completed, declined, cancelled, or expired) and the end
// is written with the store's atomic add, so two pages, two processes or a page and the expiry cannot
// both end it. Everything lives in the KeyValueStore, so a restarted server or another instance on the
// same store sees the flows and their ends.
//
// Contract notes: get(id) answers only flows that are still live (not expired; finished ones are
// still answered, check outcome()); outcome(id) says "expired" once the expiry passed with no end;
// claim(id, holder) lets the pages bind a flow to the first browser session that opens it; alias(key,
// id) lets a retry of the same tool call find its flow again.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { EventEmitter } from "node:events";
import type { KeyValueStore } from "../../store/types.js";
import { unref } from "../../common/unref.js";

export type FlowKind = "url" | "connect" | "form" | "file";

/** kind "file": what the upload page accepts. */
export interface FileAsk {
  /** MIME types, `type/*` or extensions (".pdf"); checked against the content, not only the name. */
  accept: string[];
  /** Largest file, in bytes. */
  maxBytes: number;
  /** How many files the person may send (at least one). */
  count: number;
}

export interface UrlFlow {
  /** 32 random bytes, base64url: the opaque, unguessable id in the URL. */
  id: string;
  kind: FlowKind;
  /** Who was asked (the verified caller of the tool); the pages compare it with the person in the browser. */
  principal?: { issuer: string; sub: string };
  /** The MCP server's name, shown on the pages. */
  server: string;
  /** The MCP client's name, shown on the pages. */
  client: string;
  /** Why the tool asks, shown on the pages. */
  message: string;
  /** kind "url": the author's page the connect page sends the person on to. */
  target?: string;
  /** kind "connect": the third-party provider's name in the kit's providers. */
  provider?: string;
  /** kind "form": the requestedSchema of the hosted form. */
  form?: object;
  /** kind "form": the vault name the submitted values are kept under for the principal (default: the flow id). */
  name?: string;
  /** kind "file": what the upload page accepts. */
  file?: FileAsk;
  createdAt: number;
  expiresAt: number;
}

export type FlowOutcome = "completed" | "declined" | "cancelled" | "expired";

export type FlowInit = Omit<UrlFlow, "id" | "createdAt" | "expiresAt" | "target"> & {
  /** This flow's lifetime (default: the store's ttlMs). */
  ttlMs?: number;
  /** kind "url": the author's page, or a function that builds it from the new flow's id. */
  target?: string | ((id: string) => string);
};

export interface FlowStoreOptions {
  /** How long a flow can be finished after it is created (default 10 minutes). */
  ttlMs?: number;
  /** How long a flow and its end are remembered after it expires, so a late retry learns what happened (default 24 hours). */
  retainMs?: number;
  /** How often waitFor reads the store, for ends written by another process that it was not told of (default 1 s). */
  pollMs?: number;
  /**
   * Secrets the fleet's members share (newest first; createUrlKit passes its vault ring's), from which
   * ends published are signed and ends heard are verified: a signed end wakes its waiter at once, where
   * an unsigned one (or one without keys) is first read back from the store, one round trip later.
   */
  endKeys?: readonly Buffer[] | (() => readonly Buffer[]);
}

const OUTCOMES: readonly FlowOutcome[] = ["completed", "declined", "cancelled", "expired"];
const ID_PATTERN = /^[A-Za-z0-9_-]{43}$/;

const flowKey = (id: string) => `url-flow:${id}`;
const endKey = (id: string) => `url-flow-end:${id}`;
const claimKey = (id: string) => `url-flow-claim:${id}`;
const aliasKey = (name: string) => `url-flow-alias:${name}`;
const linkKey = (id: string) => `url-flow-link:${id}`;

const endMacKey = (secret: Buffer) => Buffer.from(hkdfSync("sha256", secret, Buffer.alloc(0), "mcp-elicit flow-end hmac-sha256", 32));
const endMac = (key: Buffer, id: string, outcome: string) => createHmac("sha256", key).update(`${id}\n${outcome}`).digest();

/** Whether `mac` (base64url) signs this end under one of `keys`. */
function signedEnd(keys: readonly Buffer[] | undefined, id: string, outcome: string, mac: unknown): boolean {
  if (!keys?.length || typeof mac !== "string") return false;
  const given = Buffer.from(mac, "base64url");
  return keys.some((key) => {
    const expected = endMac(key, id, outcome);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The store channel on which flow ends are published: `{"id": …, "outcome": …}`. */
export const FLOW_END_CHANNEL = "flow-end";

/**
 * The flow ends heard in this process on one store. Ends written through any FlowStore on the same store
 * object wake its waiters at once. On a store with pub/sub (Redis) every end is also published on
 * FLOW_END_CHANNEL, so a waiter in another process wakes as promptly; the poll remains for a missed
 * message (pub/sub is at most once).
 */
class FlowEnds {
  /** Emits a flow's id with its outcome when it ends. */
  readonly channel = new EventEmitter();
  /** The subscription to FLOW_END_CHANNEL, made on the first wait. */
  private listening: Promise<void> | undefined;
  /** The keys that verify an end heard on the channel: those of every FlowStore of this process on the store. */
  private verifiers: Buffer[] = [];

  constructor(private readonly store: KeyValueStore) {
    this.channel.setMaxListeners(0);
  }

  /** Adds a FlowStore's keys to those that verify the ends heard. */
  trust(keys: readonly Buffer[]): void {
    const known = this.verifiers;
    this.verifiers = [...known, ...keys.filter((key) => !known.some((k) => k.equals(key)))];
  }

  /** Subscribes once, on the first wait; a failed subscribe is forgotten (the poll still works) and tried again later. */
  listen(): Promise<void> {
    const { store, channel } = this;
    if (!store.subscribe) return Promise.resolve();
    // The message says which flow ended. Signed by a member (a key of this process's), it is what the
    // member stored (it publishes only after its atomic add won) and wakes the waiter at once; otherwise
    // what it ended with is read from the store, the one record of it, so a message nobody stored cannot
    // decide a flow. Only flows waited on here cost a read.
    const onMessage = (message: string) => {
      const end = parseEnd(message);
      if (!end || channel.listenerCount(end.id) === 0) return;
      if (signedEnd(this.verifiers, end.id, end.outcome, end.mac)) return void channel.emit(end.id, end.outcome);
      store.get(endKey(end.id)).then(
        (stored) => stored !== undefined && OUTCOMES.includes(stored as FlowOutcome) && channel.emit(end.id, stored),
        () => undefined, // the poll reads it again
      );
    };
    return (this.listening ??= store.subscribe(FLOW_END_CHANNEL, onMessage).then(
      () => undefined,
      () => void (this.listening = undefined),
    ));
  }
}

// The one module-level map left: the store is the caller's object (no field of ours goes on it), and every
// FlowStore made on it in this process, however apart, must hear the same ends.
const endsByStore = new WeakMap<KeyValueStore, FlowEnds>();
const endsOf = (store: KeyValueStore): FlowEnds => {
  let ends = endsByStore.get(store);
  if (!ends) endsByStore.set(store, (ends = new FlowEnds(store)));
  return ends;
};

// Another process's message is untrusted input like any other: only a well-formed end is acted on.
function parseEnd(message: string): { id: string; outcome: FlowOutcome; mac?: unknown } | undefined {
  try {
    const { id, outcome, mac } = JSON.parse(message) as { id?: unknown; outcome?: unknown; mac?: unknown };
    return isFlowId(id) && OUTCOMES.includes(outcome as FlowOutcome) ? { id, outcome: outcome as FlowOutcome, mac } : undefined;
  } catch {
    return undefined;
  }
}

/** Whether `id` has the shape of a flow id (anything else is refused before the store is read). */
export const isFlowId = (id: unknown): id is string => typeof id === "string" && ID_PATTERN.test(id);

export class FlowStore {
  readonly ttlMs: number;
  readonly retainMs: number;
  private readonly pollMs: number;
  /** The ends heard on this store in this process, shared with every FlowStore on it. */
  private readonly ends: FlowEnds;
  /** The key that signs the ends this store publishes (the newest of endKeys); null: none. Undefined until first needed. */
  private signing?: Buffer | null;
  private readonly endKeys: (() => readonly Buffer[]) | undefined;

  constructor(
    private readonly store: KeyValueStore,
    options: FlowStoreOptions = {},
  ) {
    this.ttlMs = options.ttlMs ?? 10 * 60_000;
    this.retainMs = options.retainMs ?? 24 * 60 * 60_000;
    this.pollMs = options.pollMs ?? 1000;
    this.ends = endsOf(store);
    const given = options.endKeys;
    this.endKeys = typeof given === "function" ? given : given && (() => given);
    // Keys given as they are take effect now; keys given as a function (made at first use: see
    // createUrlKit) when the first flow waits or ends.
    if (typeof given !== "function") this.signingKey();
  }

  /** The signing key, and this store's keys known to the ends' verifiers, from the first call on. */
  private signingKey(): Buffer | undefined {
    if (this.signing === undefined) {
      const keys = (this.endKeys?.() ?? []).map(endMacKey);
      this.signing = keys[0] ?? null;
      if (keys.length) this.ends.trust(keys);
    }
    return this.signing ?? undefined;
  }

  async create(init: FlowInit): Promise<UrlFlow> {
    const { ttlMs = this.ttlMs, target, ...rest } = init;
    if (!(ttlMs > 0)) throw new RangeError(`A flow's ttlMs must be a positive number of milliseconds, got ${ttlMs}.`);
    const createdAt = Date.now();
    const id = randomBytes(32).toString("base64url");
    const flow: UrlFlow = { ...rest, id, createdAt, expiresAt: createdAt + ttlMs };
    if (target !== undefined) flow.target = typeof target === "function" ? target(id) : target;
    if (!(await this.store.add(flowKey(flow.id), JSON.stringify(flow), ttlMs + this.retainMs)))
      throw new Error("A fresh flow id collided with a stored one; the random source is broken.");
    return flow;
  }

  /** The flow while it is live (unknown and expired ids answer undefined; a finished flow is still answered). */
  async get(id: string): Promise<UrlFlow | undefined> {
    const flow = await this.read(id);
    return flow && flow.expiresAt > Date.now() ? flow : undefined;
  }

  /** Ends the flow, once: false when it had already ended, expired, or is unknown. */
  async finish(id: string, outcome: FlowOutcome): Promise<boolean> {
    if (!OUTCOMES.includes(outcome))
      throw new TypeError(`Unknown flow outcome ${JSON.stringify(outcome)}; expected one of ${OUTCOMES.join(", ")}.`);
    const flow = await this.read(id);
    if (!flow) return false;
    if (flow.expiresAt <= Date.now() && outcome !== "expired") {
      await this.end(id, "expired", flow);
      return false;
    }
    return this.end(id, outcome, flow);
  }

  /** How the flow ended; undefined while it is pending (or unknown). */
  async outcome(id: string): Promise<FlowOutcome | undefined> {
    if (!isFlowId(id)) return undefined;
    const ended = await this.store.get(endKey(id));
    if (ended !== undefined) return ended as FlowOutcome;
    const flow = await this.read(id);
    if (flow && flow.expiresAt <= Date.now()) {
      // Recorded so that a page finishing in the same instant cannot contradict it.
      await this.end(id, "expired", flow);
      return (await this.store.get(endKey(id))) as FlowOutcome;
    }
    return undefined;
  }

  /**
   * Binds the flow to `holder` (e.g. a browser session): true when this call bound it or it was
   * already bound to the same holder, false when someone else holds it or it is not live.
   */
  async claim(id: string, holder: string): Promise<boolean> {
    const flow = await this.get(id);
    if (!flow) return false;
    const ttl = flow.expiresAt - Date.now() + this.retainMs;
    if (await this.store.add(claimKey(id), holder, ttl)) return true;
    return (await this.store.get(claimKey(id))) === holder;
  }

  /** Who holds the flow (claim's holder), or undefined while nobody does. */
  async holder(id: string): Promise<string | undefined> {
    return isFlowId(id) ? this.store.get(claimKey(id)) : undefined;
  }

  /**
   * A new link for a live flow (the person asks for one from the client): a fresh random token that the
   * new link carries, replacing any earlier one, and the browser that held the flow let go of it, so the
   * first browser that opens the new link holds it next. Undefined when the flow is not live. The pages
   * still check the person; the old link no longer admits a browser that does not hold the flow.
   */
  async relink(id: string): Promise<string | undefined> {
    const flow = await this.get(id);
    if (!flow) return undefined;
    const token = randomBytes(32).toString("base64url");
    await this.store.set(linkKey(id), token, flow.expiresAt - Date.now() + this.retainMs);
    await this.store.delete(claimKey(id));
    return token;
  }

  /** The token of the flow's newest link, if one was asked for (relink); undefined for the link it was made with. */
  async linkToken(id: string): Promise<string | undefined> {
    return isFlowId(id) ? this.store.get(linkKey(id)) : undefined;
  }

  /** Lets `name` find the flow for as long as the flow is remembered (a retry of the same tool call finds its flow). */
  async alias(name: string, id: string): Promise<void> {
    const flow = await this.read(id);
    if (flow) await this.store.set(aliasKey(name), id, flow.expiresAt - Date.now() + this.retainMs);
  }

  /** The flow `name` was given to (live, ended or expired, while remembered). */
  async byAlias(name: string): Promise<UrlFlow | undefined> {
    const id = await this.store.get(aliasKey(name));
    return id === undefined ? undefined : this.read(id);
  }

  async unalias(name: string): Promise<void> {
    await this.store.delete(aliasKey(name));
  }

  /**
   * Resolves when the flow ends (an unknown id reads as expired). Ends written in this process, or
   * published by another on a store with pub/sub, wake it at once; the store is also read every pollMs. Rejects with the signal's
   * reason when it aborts. The wait keeps the process alive, unless `keepAlive` is false (for
   * background watchers that must not hold a process open).
   */
  waitFor(id: string, signal?: AbortSignal, { keepAlive = true }: { keepAlive?: boolean } = {}): Promise<FlowOutcome> {
    return new Promise<FlowOutcome>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason ?? new Error("aborted"));
      let settled = false;
      let expiry: NodeJS.Timeout | undefined;
      const done = (outcome: FlowOutcome | undefined, error?: unknown) => {
        if (settled || (outcome === undefined && error === undefined)) return;
        settled = true;
        clearInterval(poll);
        clearTimeout(expiry);
        this.ends.channel.off(id, onEnd);
        signal?.removeEventListener("abort", onAbort);
        if (error !== undefined) reject(error);
        else resolve(outcome!);
      };
      const check = () =>
        this.read(id).then(
          (flow) => (flow ? this.outcome(id).then((o) => done(o)) : done("expired")),
          (error) => done(undefined, error),
        );
      const onEnd = (outcome: FlowOutcome) => done(outcome);
      const onAbort = () => done(undefined, signal!.reason ?? new Error("aborted"));
      this.signingKey(); // the ends this waiter hears are checked with the kit's keys
      const poll = setInterval(check, this.pollMs);
      if (!keepAlive) unref(poll);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.ends.channel.on(id, onEnd);
      // The first read follows the subscription, so an end published in between is read, not missed.
      void this.ends
        .listen()
        .then(() => this.read(id))
        .then(
          (flow) => {
            if (settled) return;
            if (flow) {
              // Timers cannot wait longer than about 24.8 days; the poll covers a longer flow.
              const wait = flow.expiresAt - Date.now() + 5;
              if (wait < 2 ** 31) expiry = setTimeout(check, Math.max(0, wait));
              if (!keepAlive) unref(expiry);
            }
            void check();
          },
          // Not a bare reject: the poll and the listeners must go too.
          (error: unknown) => done(undefined, error),
        );
    });
  }

  private async read(id: string): Promise<UrlFlow | undefined> {
    if (!isFlowId(id)) return undefined;
    const raw = await this.store.get(flowKey(id));
    return raw === undefined ? undefined : (JSON.parse(raw) as UrlFlow);
  }

  /** Stores the end once; `flow` is the record the caller has just read (its expiry sets how long the end is kept). */
  private async end(id: string, outcome: FlowOutcome, flow: UrlFlow): Promise<boolean> {
    const ttl = flow.expiresAt - Date.now() + this.retainMs;
    const ended = await this.store.add(endKey(id), outcome, Math.max(1, ttl));
    if (ended) {
      this.ends.channel.emit(id, outcome);
      // Best effort: the end is stored; a lost message only leaves other processes to their poll.
      if (this.store.publish) {
        const signingKey = this.signingKey();
        const mac = signingKey && endMac(signingKey, id, outcome).toString("base64url");
        await this.store.publish(FLOW_END_CHANNEL, JSON.stringify({ id, outcome, ...(mac ? { mac } : {}) })).catch(() => undefined);
      }
    }
    return ended;
  }
}
