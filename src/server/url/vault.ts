// The credential vault: what a person connected or typed on the kit's pages (OAuth tokens, hosted-form
// values), kept on the server under the person's principal and never sent to the MCP client.
//
// Each record is sealed on its own with AES-256-GCM (node:crypto): a fresh random 12-byte IV, the key id
// beside it, and the record's store key as additional data, so a record copied under another person's
// key fails to open instead of being read as theirs. The store key holds a hash of the principal, not
// the principal. Only the name, kind and creation time are readable without the key (for `list`).
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import type { KeyValueStore } from "../../store/types.js";
import { kitKeys, type KitKeys } from "./keys.js";

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

interface Sealed {
  v: 1;
  kid: string;
  iv: string;
  /** Ciphertext with the 16-byte GCM tag appended, base64url. */
  ct: string;
  kind: string;
  createdAt: number;
}

const MAX_NAME = 200;
const DEFAULT_TTL_MS = 400 * 24 * 3600_000;

/** The record's key could not be opened: another key sealed it, or it was altered. */
export class VaultError extends Error {
  override name = "VaultError";
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

  /** `key`: the kit's derived keys, or the 32-byte vault key itself (see keys.ts for the accepted forms). */
  constructor(
    private readonly store: KeyValueStore,
    key: KitKeys | string | Uint8Array,
    private readonly options: VaultOptions = {},
  ) {
    this.keys = typeof key === "object" && "vault" in key ? key : kitKeys(key);
    this.ttlMs = options.ttlMs ?? DEFAULT_TTL_MS;
    this.skewMs = options.expirySkewMs ?? 30_000;
  }

  private prefix(principal: VaultPrincipal): string {
    checkPrincipal(principal);
    const owner = createHash("sha256").update(principal.issuer).update("\u0000").update(principal.sub).digest("base64url");
    return `vault:v1:${owner}:`;
  }

  private keyOf(principal: VaultPrincipal, name: string): string {
    checkName(name);
    return this.prefix(principal) + name;
  }

  private seal(storeKey: string, secret: unknown, kind: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.keys.vault, iv);
    cipher.setAAD(Buffer.from(storeKey));
    const plain = Buffer.from(JSON.stringify(secret ?? null));
    const ct = Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    const sealed: Sealed = {
      v: 1,
      kid: this.keys.id,
      iv: iv.toString("base64url"),
      ct: ct.toString("base64url"),
      kind,
      createdAt: Date.now(),
    };
    return JSON.stringify(sealed);
  }

  private open(storeKey: string, text: string): unknown {
    const sealed = JSON.parse(text) as Sealed;
    if (sealed.kid !== this.keys.id)
      throw new VaultError(`vault: a record was sealed with key ${sealed.kid}, but the configured vaultKey is ${this.keys.id}`);
    const ct = Buffer.from(sealed.ct, "base64url");
    try {
      const decipher = createDecipheriv("aes-256-gcm", this.keys.vault, Buffer.from(sealed.iv, "base64url"));
      decipher.setAAD(Buffer.from(storeKey));
      decipher.setAuthTag(ct.subarray(ct.length - 16));
      return JSON.parse(Buffer.concat([decipher.update(ct.subarray(0, ct.length - 16)), decipher.final()]).toString("utf8"));
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
    return text === undefined ? undefined : (this.open(key, text) as T);
  }

  /** What `principal` has stored: names, kinds and times, never the secrets. */
  async list(principal: VaultPrincipal): Promise<VaultEntry[]> {
    const prefix = this.prefix(principal);
    const entries: VaultEntry[] = [];
    for (const key of await this.store.keys(prefix)) {
      const text = await this.store.get(key);
      if (text === undefined) continue;
      const { kind, createdAt } = JSON.parse(text) as Sealed;
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
