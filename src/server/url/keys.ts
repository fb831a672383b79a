// The secret a URL kit is configured with (`vaultKey`), and the keys derived from it for each use, so
// a key meant for encrypting credentials never also signs CSRF tokens. Derivation is HKDF-SHA256
// (node:crypto), each use with its own label. `vaultKey` may be a ring, newest first, so the key can be
// rotated: the newest seals vault records and signs the pages' tokens, the older ones open records and
// still verify tokens they signed (a page opened before the rotation can still be submitted).
import { createHash, hkdfSync, randomBytes } from "node:crypto";

/** The environment variable `resolveKitKey` reads when no key is given. */
export const VAULT_KEY_ENV = "MCP_ELICIT_VAULT_KEY";

/** One key, or a ring newest first: an array, or a string of keys separated by commas (as $MCP_ELICIT_VAULT_KEY carries it). */
export type VaultKey = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

/** An older key of the ring: it opens vault records sealed with it and verifies tokens it signed; it seals and signs nothing. */
export interface OlderVaultKey {
  vault: Buffer;
  pages: Buffer;
  id: string;
}

export interface KitKeys {
  /** AES-256-GCM key for the vault's records. */
  vault: Buffer;
  /** HMAC key for CSRF tokens and other values the pages sign. */
  pages: Buffer;
  /** A short public name for the key, stored beside each record, so a record sealed with another key says so. */
  id: string;
  /** The ring's older keys, newest first (absent for a single key). */
  older?: readonly OlderVaultKey[];
}

/** 32 bytes from a Uint8Array, or text: 64 hex digits or base64url/base64 of 32 bytes. */
export function parseKey(key: string | Uint8Array, what = "vaultKey"): Buffer {
  let bytes: Buffer;
  if (typeof key === "string") {
    const text = key.trim();
    bytes = /^[0-9a-f]{64}$/i.test(text)
      ? Buffer.from(text, "hex")
      : Buffer.from(text.replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, ""), "base64url");
  } else bytes = Buffer.from(key);
  if (bytes.length !== 32)
    throw new Error(`${what} must be 32 bytes (AES-256): 64 hex digits or base64url of 32 bytes, got ${bytes.length} bytes`);
  return bytes;
}

const derive = (key: Buffer, label: string) => Buffer.from(hkdfSync("sha256", key, Buffer.alloc(0), `mcp-elicit ${label}`, 32));

/** The ring's keys, newest first: each entry of an array, or of a comma-separated string, parsed as `parseKey` does. */
export function parseKeyRing(key: VaultKey, what = "vaultKey"): Buffer[] {
  const entries = typeof key === "string" ? key.split(",") : key instanceof Uint8Array ? [key] : [...key];
  if (entries.length === 0) throw new Error(`${what} is an empty ring: give at least one key (the newest first)`);
  return entries.map((entry, i) => parseKey(entry, entries.length > 1 ? `${what} (key ${i + 1} of ${entries.length})` : what));
}

const keyId = (root: Buffer) => createHash("sha256").update(derive(root, "key id")).digest("base64url").slice(0, 11);

export function kitKeys(key: VaultKey, what = "vaultKey"): KitKeys {
  const [root, ...rest] = parseKeyRing(key, what);
  const older = rest.map((k) => ({ vault: derive(k, "vault aes-256-gcm"), pages: derive(k, "pages hmac-sha256"), id: keyId(k) }));
  return {
    vault: derive(root!, "vault aes-256-gcm"),
    pages: derive(root!, "pages hmac-sha256"),
    id: keyId(root!),
    ...(older.length ? { older } : {}),
  };
}

/**
 * The kit's keys: the key or ring given, else $MCP_ELICIT_VAULT_KEY (a ring as comma-separated keys), else, only when nothing outlives the process
 * (`durable` false: the default in-memory store), a random one. A durable store without a key is refused:
 * credentials sealed with a key nobody kept could never be opened after a restart.
 */
export function resolveKitKey(key: VaultKey | undefined, durable: boolean): KitKeys {
  if (key !== undefined) return kitKeys(key);
  const env = process.env[VAULT_KEY_ENV];
  if (env) return kitKeys(env, `$${VAULT_KEY_ENV}`);
  if (durable)
    throw new Error(
      `createUrlKit: a durable store needs vaultKey (or $${VAULT_KEY_ENV}): 32 random bytes, e.g. \`node -e "console.log(crypto.randomBytes(32).toString('base64url'))"\`, kept secret and stable across restarts`,
    );
  // Made at first use (a flow signed, a secret sealed): Workers forbid random numbers in global scope,
  // where a kit made at module scope is constructed.
  let made: KitKeys | undefined;
  const keys = () => (made ??= kitKeys(randomBytes(32)));
  return {
    get vault() {
      return keys().vault;
    },
    get pages() {
      return keys().pages;
    },
    get id() {
      return keys().id;
    },
  };
}
