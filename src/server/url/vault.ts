// The credential vault: what a person connected or typed on the kit's pages (OAuth tokens, hosted-form
// values), kept on the server under the person's principal and never sent to the MCP client.
//
// Each record is sealed on its own with AES-256-GCM (node:crypto): a fresh random 12-byte IV, the key id
// beside it, and as additional data the record's store key, kind and creation time (format v2), so a
// record copied under another person's key fails to open instead of being read as theirs, and the
// fields readable beside the ciphertext cannot be changed undetected. The store key holds a hash of the
// principal, not the principal. Records of format v1 (additional data: the store key alone) still open;
// every write seals v2 with the newest key of the ring.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { KeyValueStore } from "../../store/types.js";
import { kitKeys, type KitKeys, type VaultKey } from "./keys.js";
import { ElicitError } from "../../schema/errors.js";

/** Whose credential: the authorization server and the subject it vouches for. */
export interface VaultPrincipal {
  issuer: string;
  sub: string;
}

export interface VaultEntry {
  name: string;
  /** "oauth" (a connected account), "form" (values of a hosted form), or what `put` was given. */
  kind: string;
  createdAt: number;
}

/** What `connect` stores: the provider's tokens. */
export interface OAuthCredential {
  provider: string;
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  /** Epoch milliseconds; absent when the provider did not say. */
  expiresAt?: number;
  scope?: string;
}

/** A token response, as the refresh hook returns it. */
export interface RefreshedTokens {
  accessToken: string;
  tokenType: string;
  refreshToken?: string;
  expiresInS?: number;
  scope?: string;
}

export interface VaultOptions {
  /** How long a record is kept after it was written (default 400 days). */
  ttlMs?: number;
  /**
   * Trades a refresh token for new tokens at the provider's token endpoint; `token()` calls it for an
   * expired access token. Resolves undefined when the provider refused the refresh token (invalid_grant).
   */
  refresh?: (provider: string, refreshToken: string) => Promise<RefreshedTokens | undefined>;
  /** An access token this close to expiry counts as expired (default 30 s). */
  expirySkewMs?: number;
}

/** A record as stored. v1 (read only) bound the store key alone; v2 also binds v, kind and createdAt. */
interface Sealed {
  v: 1 | 2;
  kid: string;
  iv: string;
  /** Ciphertext with the 16-byte GCM tag appended, base64url. */
  ct: string;
  kind: string;
  createdAt: number;
}

/** What `reseal` did: records re-sealed, records already current, and records no key of the ring opened. */
export interface ResealReport {
  resealed: number;
  current: number;
  failed: Array<{ key: string; error: string }>;
}

const FORMAT = 2;
const RECORDS = "vault:v1:";
const MAX_NAME = 200;
const DEFAULT_TTL_MS = 400 * 24 * 3600_000;

/** The record's key could not be opened: another key sealed it, or it was altered. */
export class VaultError extends ElicitError {
  constructor(message: string) {
    super("vault-failed", message);
  }
}

// v2's additional data is one JSON array (no separator a name or kind could forge), starting with a
// label no v1 store key starts with, so a v2 record relabelled v1 (or back) fails to open too.
function additionalData(storeKey: string, sealed: Pick<Sealed, "v" | "kind" | "createdAt">): Buffer {
  return Buffer.from(sealed.v === 1 ? storeKey : JSON.stringify(["mcp-elicit vault", sealed.v, storeKey, sealed.kind, sealed.createdAt]));
}

function parseSealed(text: string): Sealed {
  let sealed: Partial<Sealed> | null = null;
  try {
    sealed = JSON.parse(text) as Partial<Sealed> | null;
  } catch {
    // reported below
  }
  if (
    typeof sealed !== "object" ||
    sealed === null ||
    (sealed.v !== 1 && sealed.v !== 2) ||
    typeof sealed.kid !== "string" ||
    typeof sealed.iv !== "string" ||
    typeof sealed.ct !== "string" ||
    typeof sealed.kind !== "string" ||
    typeof sealed.createdAt !== "number" ||
    !Number.isFinite(sealed.createdAt)
  )
    throw new VaultError("vault: a record is malformed, or of a format this version does not read (v 1 or 2)");
  return sealed as Sealed;
}

function checkPrincipal(principal: VaultPrincipal): void {
  if (typeof principal?.issuer !== "string" || principal.issuer === "" || typeof principal.sub !== "string" || principal.sub === "")
    throw new TypeError("vault: principal must be { issuer, sub } with both non-empty strings");
}

function checkName(name: string): void {
  if (typeof name !== "string" || name === "" || name.length > MAX_NAME || /[\u0000-\u001f\u007f]/.test(name))
    throw new TypeError(`vault: name must be 1 to ${MAX_NAME} characters without control characters`);
}

export class Vault {
  private readonly ttlMs: number;
  private readonly skewMs: number;
  /** Refreshes under way, by record key: two callers share one refresh (providers rotate refresh tokens). */
  private readonly refreshing = new Map<string, Promise<string | undefined>>();

  private readonly keys: KitKeys;

  /** `key`: the kit's derived keys, or the 32-byte vault key itself, or a ring of them newest first (see keys.ts). */
  constructor(
    private readonly store: KeyValueStore,
    key: KitKeys | VaultKey,
    private readonly options: VaultOptions = {},
  ) {
    this.keys = typeof key === "object" && "vault" in key ? key : kitKeys(key);
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.skewMs = options.expirySkewMs ?? 30_000;
  }

  private prefix(principal: VaultPrincipal): string {
    checkPrincipal(principal);
    const owner = createHash("sha256").update(principal.issuer).update("\u0000").update(principal.sub).digest("base64url");
    return `${RECORDS}${owner}:`;
  }

  private keyOf(principal: VaultPrincipal, name: string): string {
    checkName(name);
    return this.prefix(principal) + name;
  }

  private seal(storeKey: string, secret: unknown, kind: string, createdAt = Date.now()): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keys.vault, iv);
    cipher.setAAD(additionalData(storeKey, { v: FORMAT, kind, createdAt }));
    const plain = Buffer.from(JSON.stringify(secret ?? null));
    const ct = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const sealed: Sealed = { v: FORMAT, kid: this.keys.id, iv: iv.toString("base64url"), ct: ct.toString("base64url"), kind, createdAt };
    return JSON.stringify(sealed);
  }

  /** The ring's key with id `kid`: the newest seals, any opens what it sealed. */
  private keyFor(kid: string): Buffer {
    if (kid === this.keys.id) return this.keys.vault;
    const older = this.keys.older?.find((k) => k.id === kid);
    if (older) return older.vault;
    const others = this.keys.older?.length ? ` (older keys in the ring: ${this.keys.older.map((k) => k.id).join(", ")})` : "";
    throw new VaultError(
      `vault: a record was sealed with key ${/^[\w-]{1,64}$/.test(kid) ? kid : "(a malformed id)"}, but the configured vaultKey is ${this.keys.id}${others}; put the key that sealed it in the ring, after the newest`,
    );
  }

  private unseal(storeKey: string, text: string): { value: unknown; sealed: Sealed } {
    const sealed = parseSealed(text);
    const key = this.keyFor(sealed.kid);
    const ct = Buffer.from(sealed.ct, "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(sealed.iv, "base64url"));
      decipher.setAAD(additionalData(storeKey, sealed));
      decipher.setAuthTag(ct.subarray(ct.length - 16));
      const value: unknown = JSON.parse(
        Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]).toString("utf8"),
      );
      return { value, sealed };
    } catch {
      throw new VaultError("vault: a record failed its integrity check (altered, or moved from another entry)");
    }
  }

  /** Stores `secret` (any JSON value) as `name` for `principal`, replacing what was there. */
  async put(principal: VaultPrincipal, name: string, secret: unknown, kind = "secret"): Promise<void> {
    const key = this.keyOf(principal, name);
    await this.store.set(key, this.seal(key, secret, kind), this.ttlMs);
  }

  async get<T = unknown>(principal: VaultPrincipal, name: string): Promise<T | undefined> {
    const key = this.keyOf(principal, name);
    const text = await this.store.get(key);
    // Read only: a record an older key sealed is re-sealed with the newest by the next `put` (or `reseal`),
    // not here, since rewriting on read could overwrite a concurrent put (the store has no compare-and-set).
    return text === undefined ? undefined : (this.unseal(key, text).value as T);
  }

  /**
   * What `principal` has stored: names, kinds and times, never the secrets. Each record is opened to
   * authenticate its kind and time (one AES-GCM pass over a small record, cheap), so a record that does not
   * open throws VaultError here as in `get`. Kind and time of a v1 record are as stored (v1 did not bind them).
   */
  async list(principal: VaultPrincipal): Promise<VaultEntry[]> {
    const prefix = this.prefix(principal);
    const entries: VaultEntry[] = [];
    for (const key of await this.store.keys(prefix)) {
      const text = await this.store.get(key);
      if (text === undefined) continue;
      const { kind, createdAt } = this.unseal(key, text).sealed;
      entries.push({ name: key.slice(prefix.length), kind, createdAt });
    }
    return entries.sort((a, b) => a.createdAt - b.createdAt || (a.name < b.name ? -1 : 1));
  }

  /** Forgets `name`; true when there was something to forget. */
  async revoke(principal: VaultPrincipal, name: string): Promise<boolean> {
    const key = this.keyOf(principal, name);
    const had = (await this.store.get(key)) !== undefined;
    await this.store.delete(key);
    return had;
  }

  /**
   * Re-seals every record that is not v2 under the newest key, keeping its kind, creation time and expiry.
   * Run it after putting a new key first in the ring; once it reports no failures, the older keys can go.
   * Records that are written again (refreshed tokens) move on their own; others (the kit's client
   * registrations, stored forms) need this. Records that do not open are reported, and left as they are.
   */
  async reseal(): Promise<ResealReport> {
    const report: ResealReport = { resealed: 0, current: 0, failed: [] };
    for (const key of await this.store.keys(RECORDS)) {
      const text = await this.store.get(key);
      if (text === undefined) continue;
      let opened: { value: unknown; sealed: Sealed };
      try {
        opened = this.unseal(key, text);
      } catch (e) {
        report.failed.push({ key, error: (e as Error).message });
        continue;
      }
      const { value, sealed } = opened;
      const remainingMs = sealed.createdAt + this.ttlMs - Date.now();
      if (sealed.v === FORMAT && sealed.kid === this.keys.id) {
        report.current++;
        continue;
      }
      // Older than ttlMs (lowered since it was written): left to expire, not given a new life.
      if (remainingMs <= 0) continue;
      // No compare-and-set in the store: skip a record a put replaced meanwhile (that put sealed it with the newest key).
      if ((await this.store.get(key)) !== text) continue;
      await this.store.set(key, this.seal(key, value, sealed.kind, sealed.createdAt), remainingMs);
      report.resealed++;
    }
    return report;
  }

  /**
   * A usable access token for the account `principal` connected as `provider`: the stored one while it is
   * valid, else a new one from the refresh token (stored in its place). Undefined when nothing is
   * connected, or the token expired and cannot be refreshed (the dead credential is then forgotten):
   * ask the person to connect again.
   */
  async token(principal: VaultPrincipal, provider: string): Promise<string | undefined> {
    const key = this.keyOf(principal, provider);
    const credential = await this.get<OAuthCredential>(principal, provider);
    if (!credential) return undefined;
    if (typeof credential.accessToken !== "string") throw new VaultError(`vault: "${provider}" holds no OAuth credential`);
    if (credential.expiresAt === undefined || credential.expiresAt - this.skewMs > Date.now()) return credential.accessToken;
    const running = this.refreshing.get(key);
    if (running) return running;
    const refreshed = this.refreshed(principal, provider, credential).finally(() => this.refreshing.delete(key));
    this.refreshing.set(key, refreshed);
    return refreshed;
  }

  private async refreshed(principal: VaultPrincipal, provider: string, credential: OAuthCredential): Promise<string | undefined> {
    const tokens =
      credential.refreshToken && this.options.refresh ? await this.options.refresh(provider, credential.refreshToken) : undefined;
    if (!tokens) {
      await this.revoke(principal, provider);
      return undefined;
    }
    await this.put(principal, provider, oauthCredential(provider, tokens, credential.refreshToken), "oauth");
    return tokens.accessToken;
  }
}

/** The record `connect` stores for a token response; a refresh that returns no refresh token keeps the old one. */
export function oauthCredential(provider: string, tokens: RefreshedTokens, previousRefreshToken?: string): OAuthCredential {
  const refreshToken = tokens.refreshToken ?? previousRefreshToken;
  return {
    provider,
    accessToken: tokens.accessToken,
    tokenType: tokens.tokenType,
    ...(refreshToken ? { refreshToken } : {}),
    ...(tokens.expiresInS !== undefined ? { expiresAt: Date.now() + tokens.expiresInS * 1000 } : {}),
    ...(tokens.scope ? { scope: tokens.scope } : {}),
  };
}
