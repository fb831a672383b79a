// Tokens already verified, until they expire: a JWT's signature and claims do not change, so checking
// the same token again on every request of a session only spends a WebCrypto call (a thread-pool hop)
// each time. Keyed by the token's SHA-256, so the cache holds no usable token; bounded, oldest out first.
import { createHash } from "node:crypto";
import type { AuthInfo } from "@modelcontextprotocol/server";

export const MAX_VERIFIED_TOKENS = 1000;

const keyOf = (token: string) => createHash("sha256").update(token).digest("base64url");

export class VerifiedTokens {
  private readonly entries = new Map<string, Omit<AuthInfo, "token">>();

  constructor(private readonly max = MAX_VERIFIED_TOKENS) {}

  /** The AuthInfo of `token` if it was verified and has not expired since. */
  get(token: string, now = Date.now()): AuthInfo | undefined {
    const key = keyOf(token);
    const info = this.entries.get(key);
    if (!info) return undefined;
    if (info.expiresAt === undefined || info.expiresAt * 1000 <= now) {
      this.entries.delete(key);
      return undefined;
    }
    // A copy each time: one request's handler cannot change what the next one sees.
    return {
      ...info,
      scopes: [...info.scopes],
      ...(info.resource ? { resource: new URL(info.resource) } : {}),
      ...(info.extra ? { extra: { ...info.extra } } : {}),
      token,
    };
  }

  set(info: AuthInfo): void {
    const { token, ...rest } = info;
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(keyOf(token), rest);
  }

  get size(): number {
    return this.entries.size;
  }
}
