// The sealed `requestState` of 2026-07-28 round trips: the handler's journal, encrypted and
// authenticated with AES-256-GCM under a key derived for the issuing server, bound to who asked, which
// tool, which arguments, and until when. The spec says requestState is attacker-controlled input; this is
// what makes it safe to trust.
//
// Never compressed: the journal holds the client's own answers, and a compressed size beside them would
// tell the client, through the token's length, whatever else the journal holds (a CRIME/BREACH oracle).
// The length of a token is the length of what the client sent, plus fixed-size fields (SECURITY.md).
//
// A fleet member may put a public route tag in front: `<tag>.<sealed>`, outside the seal, so a balancer
// can send a retry back to the member that asked (where its handler waits, warm.ts) without any key.
// The tag is not bound into the seal (no associated data) on purpose: nothing trusts it. Opening reads
// only the sealed part; a warm handler is found by the exact token, so an altered tag reaches no held
// handler; the ledger keeps each round single-use whatever the tag. A forged or altered tag thus only
// changes which member the retry reaches, and that member replays it cold, as any other would; binding
// it would only turn that harmless detour into a refusal.
import * as crypto from "node:crypto";
import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomFillSync, randomBytes } from "node:crypto";
import { ElicitError, INVALID_PARAMS } from "../../schema/errors.js";

/** States sealed under the issuer's derived key, never compressed. */
const VERSION = 2;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const HEADER = Buffer.from([VERSION]);

/** A route tag: short, public, and outside base64url's alphabet only by the dot that ends it. */
export const ROUTE_TAG_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;

/** `tag`, checked as a route tag; throws a clear error otherwise. */
export function checkRouteTag(tag: string): string {
  if (!ROUTE_TAG_PATTERN.test(tag))
    throw new TypeError(
      `routeTag ${JSON.stringify(tag)} must be 1 to 32 characters of A-Z, a-z, 0-9, "_" or "-" (it is public: a member's name, not a secret).`,
    );
  return tag;
}

/** The route tag a token carries (`<tag>.<sealed>`), or undefined. What a balancer reads; never trusted here. */
export function routeTagOf(token: string): string | undefined {
  const dot = token.indexOf(".");
  return dot > 0 && ROUTE_TAG_PATTERN.test(token.slice(0, dot)) ? token.slice(0, dot) : undefined;
}

/** Default ceiling on one sealed requestState, in bytes of its base64url text. */
export const DEFAULT_MAX_STATE_BYTES = 256 * 1024;

/** What a state is bound to; all of it must match when the state comes back. */
export interface StateBinding {
  /** The authenticated principal (the auth subject), or "anonymous". */
  principal: string;
  /** The tool name. */
  tool: string;
  /** The tool's arguments; stored as a SHA-256 digest only. */
  args: unknown;
  /** `digest(args)`, when the caller already has it (it is the same for every round of a call). */
  argsDigest?: string;
}

export type StateProblem = "malformed" | "tampered" | "expired" | "principal" | "tool" | "arguments" | "too-large" | "replayed";

/** A requestState that cannot be used; `problem` says why. The request is refused with -32602 and `data.reason`. */
export class StateError extends ElicitError {
  constructor(
    readonly problem: StateProblem,
    message: string,
  ) {
    super("state-invalid", `Invalid requestState: ${message}`);
  }

  override get rpcCode() {
    return INVALID_PARAMS;
  }

  protected override details() {
    return { reason: this.problem };
  }
}

/** A 32-byte key from bytes, or from a base64/base64url/hex string (e.g. an environment variable). */
export function toStateKey(key: string | Uint8Array | undefined): Buffer {
  if (key === undefined) return randomBytes(32);
  const bytes = typeof key === "string" ? decodeKeyString(key.trim()) : Buffer.from(key);
  if (bytes.length !== 32) throw new Error(`requestState key must be 32 bytes (AES-256), got ${bytes.length}`);
  return bytes;
}

/** The environment variable read for the requestState key ring when `stateKey` is not given (comma-separated, newest first). */
export const STATE_KEY_ENV = "MCP_ELICIT_STATE_KEY";

/** One key, or a ring of keys (newest first): the first seals, every one opens. */
export type StateKeyInput = string | Uint8Array | readonly (string | Uint8Array)[];

/** A ring from one key or several; an empty ring is refused, since nothing could be sealed. */
export function toStateKeys(keys: StateKeyInput): Buffer[] {
  const list = typeof keys === "string" || keys instanceof Uint8Array ? [keys] : [...keys];
  if (list.length === 0) throw new Error("stateKey is an empty list; give at least one 32-byte key (the first one seals)");
  return list.map((key, i) => {
    try {
      return toStateKey(key);
    } catch (error) {
      throw new Error(list.length > 1 ? `stateKey[${i}]: ${(error as Error).message}` : (error as Error).message);
    }
  });
}

/**
 * The key one issuer seals with: HKDF-SHA256 of the master key, labelled with the issuer's name. Servers
 * that share a master key but not a name cannot open each other's states: GCM's tag fails, as with a
 * foreign key.
 */
export function issuerKey(master: Buffer, issuer: string): Buffer {
  return Buffer.from(hkdfSync("sha256", master, Buffer.alloc(0), `mcp-elicit requestState v${VERSION}\u0000${issuer}`, 32));
}

function decodeKeyString(key: string): Buffer {
  return /^[0-9a-f]{64}$/i.test(key) ? Buffer.from(key, "hex") : Buffer.from(key, "base64url");
}

/** Stable JSON (sorted keys) so equal arguments hash equally whatever their key order. */
export function stableStringify(value: unknown): string {
  if (Array.isArray(value)) {
    let text = "[";
    for (let i = 0; i < value.length; i++) text += (i ? "," : "") + stableStringify(value[i]);
    return `${text}]`;
  }
  if (value && typeof value === "object") {
    const object = value as Record<string, unknown>;
    // Keys compared as strings by code unit (the default sort), the same order whatever order they came in.
    const keys = Object.keys(object).sort();
    let text = "{";
    for (const key of keys) {
      const v = object[key];
      if (v === undefined) continue;
      text += `${text.length > 1 ? "," : ""}${JSON.stringify(key)}:${stableStringify(v)}`;
    }
    return `${text}}`;
  }
  return JSON.stringify(value ?? null);
}

type OneShotHash = (algorithm: string, data: string, encoding: "base64url") => string;
// crypto.hash (Node 20.12+) hashes in one call, without a Hash object; older Node takes the long way.
const oneShot = (crypto as { hash?: OneShotHash }).hash;
const hashText = (text: string): string =>
  oneShot ? oneShot("sha256", text, "base64url") : createHash("sha256").update(text).digest("base64url");

// The same texts come back round after round: a call's arguments, and each question's fingerprint text
// (asked in one round, asked again in the next to check the answer is to the same question). A Map
// lookup costs a fraction of a call into OpenSSL, so the last few short texts keep their digest.
const MEMO_MAX_TEXT = 2048;
const MEMO_ENTRIES = 256;
const memo = new Map<string, string>();

/** SHA-256 of a text, base64url. */
export function sha256(text: string): string {
  if (text.length > MEMO_MAX_TEXT) return hashText(text);
  let hash = memo.get(text);
  if (hash === undefined) {
    hash = hashText(text);
    memo.set(text, hash);
    // A Map iterates in insertion order: the first key is the oldest.
    if (memo.size > MEMO_ENTRIES) memo.delete(memo.keys().next().value!);
  }
  return hash;
}

export const digest = (value: unknown) => sha256(stableStringify(value));

// IVs come from a pool refilled 4 KiB at a time: one call into the CSPRNG per ~340 seals instead of one each.
const ivPool = Buffer.allocUnsafe(4096);
let ivOffset = ivPool.length;
function nextIv(): Buffer {
  if (ivOffset + IV_BYTES > ivPool.length) {
    randomFillSync(ivPool);
    ivOffset = 0;
  }
  // A copy: the pool is overwritten on refill, while the cipher keeps using its IV.
  return Buffer.from(ivPool.subarray(ivOffset, (ivOffset += IV_BYTES)));
}

interface Envelope<T> extends StateTerms {
  d: T;
}

/**
 * The states this process sealed last, by token: the envelope's JSON text. A token that comes back to the
 * process that issued it (the usual case) is opened from here, string-equal to what was sealed, without a
 * second AES-GCM pass; every check after decryption (expiry, principal, tool, arguments) still runs.
 */
export class RecentStates {
  private readonly texts = new Map<string, string>();
  /** The tokens remembered, oldest first from `next`: the one to forget when a new one comes. */
  private readonly order: (string | undefined)[];
  private next = 0;
  constructor(max = 512) {
    if (!Number.isInteger(max) || max < 1) throw new RangeError(`RecentStates holds a whole number of tokens, at least 1; got ${max}`);
    this.order = new Array<string | undefined>(max).fill(undefined);
  }

  remember(token: string, text: string): void {
    const oldest = this.order[this.next];
    if (oldest !== undefined) this.texts.delete(oldest);
    this.order[this.next] = token;
    this.next = (this.next + 1) % this.order.length;
    this.texts.set(token, text);
  }

  text(token: string): string | undefined {
    return this.texts.get(token);
  }
}

export interface SealOptions {
  /** The key that seals (the ring's first): the issuer's key (`issuerKey`). */
  key: Buffer;
  /** Every key that opens, newest first (default: `key` alone). A state sealed with a key not here is `tampered`. */
  ring?: readonly Buffer[];
  /** Where sealed states are remembered, so this process opens its own without decrypting them again. */
  recent?: RecentStates;
  ttlMs: number;
  maxBytes?: number;
  now?: number;
  /** A public tag put in front of each token sealed (`<tag>.<sealed>`) for a balancer to route on (see the top of this file). */
  routeTag?: string;
}

/** What a state is checked against when it comes back, besides its integrity: who, which tool, which arguments, until when. */
export interface StateTerms {
  p: string;
  t: string;
  a: string;
  e: number;
}

export function seal<T>(data: T, binding: StateBinding, options: SealOptions): string {
  return sealed(data, binding, options).token;
}

/** seal(), also handing back the terms sealed with it (a warm round checks a retry against them without opening the token). */
export function sealed<T>(data: T, binding: StateBinding, options: SealOptions): { token: string; terms: StateTerms } {
  const envelope: Envelope<T> = {
    p: binding.principal,
    t: binding.tool,
    a: binding.argsDigest ?? digest(binding.args),
    e: (options.now ?? Date.now()) + options.ttlMs,
    d: data,
  };
  const json = JSON.stringify(envelope);
  const iv = nextIv();
  const cipher = createCipheriv("aes-256-gcm", options.key, iv);
  // Encrypted from the text itself: the JSON is never copied into a Buffer of its own first.
  const body = cipher.update(json, "utf8");
  cipher.final();
  const text = Buffer.concat([HEADER, iv, body, cipher.getAuthTag()]).toString("base64url");
  const token = options.routeTag === undefined ? text : `${options.routeTag}.${text}`;
  const max = options.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
  if (token.length > max) {
    throw new StateError(
      "too-large",
      `The tool's recorded answers need ${token.length} bytes of requestState, over the limit of ${max}; raise maxStateBytes or ask for less per call.`,
    );
  }
  options.recent?.remember(token, json);
  return { token, terms: { p: envelope.p, t: envelope.t, a: envelope.a, e: envelope.e } };
}

/** The plaintext when `key` authenticates the token, else undefined. */
function decrypt(raw: Buffer, key: Buffer): Buffer | undefined {
  try {
    const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(1, 1 + IV_BYTES));
    decipher.setAuthTag(raw.subarray(raw.length - TAG_BYTES));
    const plain = decipher.update(raw.subarray(1 + IV_BYTES, raw.length - TAG_BYTES));
    decipher.final(); // throws when the tag does not match; GCM's final adds no bytes
    return plain;
  } catch {
    return undefined;
  }
}

/** The envelope inside a token, tried with each key of the ring (newest first; GCM's tag fails under a wrong key). */
function decryptEnvelope<T>(token: string, options: SealOptions): Envelope<T> | undefined {
  const raw = Buffer.from(token, "base64url");
  // One format: the earlier one (compressed, under the master key itself) is not opened any more.
  if (raw.length < 1 + IV_BYTES + TAG_BYTES || raw[0] !== VERSION)
    throw new StateError("malformed", "requestState is not a state this server issued (unknown format).");
  for (const key of options.ring ?? [options.key]) {
    const plain = decrypt(raw, key);
    if (!plain) continue;
    try {
      return JSON.parse(plain.toString("utf8")) as Envelope<T>;
    } catch {
      return undefined; // authentic but unreadable: only a bug or a leaked key gets here; refused like a forgery
    }
  }
  return undefined;
}

export function open<T>(token: unknown, binding: StateBinding, options: SealOptions): T {
  const max = options.maxBytes ?? DEFAULT_MAX_STATE_BYTES;
  if (typeof token !== "string") throw new StateError("malformed", "requestState is not a state this server issued (not text).");
  if (token.length > max) throw new StateError("too-large", `requestState is ${token.length} bytes, over the limit of ${max}.`);
  // A state this process sealed is string-equal to its token; anything else is checked, decrypted and authenticated.
  const recent = options.recent?.text(token);
  let envelope: Envelope<T> | undefined;
  if (recent !== undefined) envelope = JSON.parse(recent) as Envelope<T>;
  else {
    // A route tag in front is skipped unread (whichever member's it names, the sealed part decides).
    const dot = token.indexOf(".");
    if (dot >= 0 && !ROUTE_TAG_PATTERN.test(token.slice(0, dot)))
      throw new StateError("malformed", "requestState is not a state this server issued (not a route tag before its dot).");
    const text = dot >= 0 ? token.slice(dot + 1) : token;
    if (!/^[A-Za-z0-9_-]+$/.test(text))
      throw new StateError("malformed", "requestState is not a state this server issued (not base64url text).");
    envelope = decryptEnvelope<T>(text, options);
  }
  if (!envelope) throw new StateError("tampered", "requestState failed its integrity check: it was modified, or sealed with another key.");
  checkTerms(envelope, binding, options.now);
  return envelope.d;
}

/** Refuses an authentic state that expired, or was issued to another principal, tool or arguments. */
export function checkTerms(terms: StateTerms, binding: StateBinding, now = Date.now()): void {
  if (now > terms.e) throw new StateError("expired", `requestState expired at ${new Date(terms.e).toISOString()}; call the tool again.`);
  if (terms.p !== binding.principal) throw new StateError("principal", "requestState was issued to another principal.");
  if (terms.t !== binding.tool) throw new StateError("tool", `requestState was issued for tool "${terms.t}", not "${binding.tool}".`);
  if (terms.a !== (binding.argsDigest ?? digest(binding.args)))
    throw new StateError("arguments", "requestState was issued for a call with other arguments.");
}
