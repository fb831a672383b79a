// The one secret a URL kit is configured with (`vaultKey`), and the keys derived from it for each use, so
// a key meant for encrypting credentials never also signs CSRF tokens. Derivation is HKDF-SHA256
// (node:crypto), each use with its own label.
import { createHash, hkdfSync, randomBytes } from "node:crypto";

/** The environment variable `resolveKitKey` reads when no key is given. */
export const VAULT_KEY_ENV = "MCP_ELICIT_VAULT_KEY";

export interface KitKeys {
  /** AES-256-GCM key for the vault's records. */
  vault: Buffer;
  /** HMAC key for CSRF tokens and other values the pages sign. */
  pages: Buffer;
  /** A short public name for the key, stored beside each record, so a record sealed with another key says so. */
  id: string;
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

export function kitKeys(key: string | Uint8Array): KitKeys {
  const root = parseKey(key);
  return {
    vault: derive(root, "vault aes-256-gcm"),
    pages: derive(root, "pages hmac-sha256"),
    id: createHash("sha256").update(derive(root, "key id")).digest("base64url").slice(0, 11),
  };
}

/**
 * The kit's key: the one given, else $MCP_ELICIT_VAULT_KEY, else, only when nothing outlives the process
 * (`durable` false: the default in-memory store), a random one. A durable store without a key is refused:
 * credentials sealed with a key nobody kept could never be opened after a restart.
 */
export function resolveKitKey(key: string | Uint8Array | undefined, durable: boolean): KitKeys {
  const given = key ?? (process.env[VAULT_KEY_ENV] || undefined);
  if (given !== undefined) return kitKeys(given);
  if (durable)
    throw new Error(
      `createUrlKit: a durable store needs vaultKey (or $${VAULT_KEY_ENV}): 32 random bytes, e.g. \`node -e "console.log(crypto.randomBytes(32).toString('base64url'))"\`, kept secret and stable across restarts`,
    );
  return kitKeys(randomBytes(32));
}
