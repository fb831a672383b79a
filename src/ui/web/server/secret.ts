// The secret in the page's address: whoever has it can answer for the person, so it is long, random
// and compared in constant time.
import { createHash, randomBytes, timingSafeEqual } from "node:crypto";

/** 32 random bytes, base64url (43 characters: safe in a URL path). */
export const newSecret = (): string => randomBytes(32).toString("base64url");

/** Constant-time comparison; hashing first makes the inputs equal in length, so the length does not leak either. */
export function sameSecret(given: string, secret: string): boolean {
  const digest = (text: string) => createHash("sha256").update(text).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
