// DPoP nonces (RFC 9449 §8) that need no storage: the second they were made, with an HMAC of it. The
// HMAC key is derived (HKDF-SHA256, its own label) from a key ring the members of a fleet share, so a
// nonce one member handed out is accepted by every other: the ring given as `auth.dpop.key`, else
// $MCP_ELICIT_STATE_KEY (the requestState ring fleet members already share), else a random key of this
// process, which only this process accepts. The newest key of the ring makes nonces and every key
// checks them, so the ring rotates as the requestState ring does. A nonce changes every second and
// is accepted for the proof window (maxAgeSeconds) after it was made.
import { createHmac, hkdfSync, randomBytes, timingSafeEqual } from "node:crypto";
import { STATE_KEY_ENV, toStateKeys, type StateKeyInput } from "../base/sealed-state.js";

const LABEL = "mcp-elicit dpop-nonce hmac-sha256";
const nonceKey = (root: Buffer) => Buffer.from(hkdfSync("sha256", root, Buffer.alloc(0), LABEL, 32));

/** The ring parsed as the kit parses `stateKey`, its errors naming where it came from. */
function ringOf(keys: StateKeyInput, what: string): Buffer[] {
  try {
    return toStateKeys(keys);
  } catch (error) {
    throw new TypeError(`${what}: ${(error as Error).message.replace(/^stateKey/, "key")}`);
  }
}

/** The ring the nonce keys come from; `shared` false for a random key only this process knows. */
export function dpopNonceRing(key: StateKeyInput | undefined): { ring: Buffer[]; shared: boolean } {
  if (key !== undefined) return { ring: ringOf(key, "auth.dpop.key"), shared: true };
  const fromEnv = process.env[STATE_KEY_ENV]?.trim();
  if (fromEnv)
    return {
      ring: ringOf(
        fromEnv.split(",").map((k) => k.trim()),
        `$${STATE_KEY_ENV}`,
      ),
      shared: true,
    };
  return { ring: [randomBytes(32)], shared: false };
}

export class DpopNonces {
  private readonly keys: Buffer[];
  constructor(
    ring: readonly Buffer[],
    private readonly lifetimeMs: number,
  ) {
    this.keys = ring.map(nonceKey);
  }
  private static mac(key: Buffer, time: string) {
    return createHmac("sha256", key).update(time).digest("base64url");
  }
  current(now = Date.now()): string {
    const time = Math.floor(now / 1000).toString(36);
    return `${time}.${DpopNonces.mac(this.keys[0]!, time)}`;
  }
  valid(nonce: unknown, now = Date.now()): boolean {
    if (typeof nonce !== "string" || nonce.length > 64) return false;
    const [time = "", mac = ""] = nonce.split(".");
    if (!/^[0-9a-z]{1,12}$/.test(time)) return false;
    const given = Buffer.from(mac);
    const signed = this.keys.some((key) => {
      const expected = Buffer.from(DpopNonces.mac(key, time));
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
    if (!signed) return false;
    const madeMs = parseInt(time, 36) * 1000;
    return madeMs <= now + 1000 && now - madeMs <= this.lifetimeMs;
  }
}
