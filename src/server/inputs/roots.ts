// ctx.roots: the client's roots, checked before the tool sees them. Whether a list is kept is the way
// of asking's (a 2025-era connection keeps it until list_changed: live/live-roots.ts).
import type { Root } from "@modelcontextprotocol/server";
import { InvalidClientResultError } from "../base/input-errors.js";

export interface RootsOptions {
  /** How long to wait for the client, in ms (2025 eras; default: the server's, 10 minutes). */
  timeoutMs?: number;
  /** The key of this request in 2026-07-28 `inputRequests` (default `roots-N`). */
  key?: string;
}

/** Checks the client's answer to roots/list; anything malformed is InvalidClientResultError. */
export function checkRootsResult(result: unknown): Root[] {
  const bad = (problem: string): never => {
    throw new InvalidClientResultError("roots/list", problem);
  };
  const roots = (result as { roots?: unknown } | null)?.roots;
  if (typeof result !== "object" || result === null || !Array.isArray(roots)) return bad(`it has no "roots" array.`);
  return roots.map((root, i) => {
    const r = root as { uri?: unknown; name?: unknown; _meta?: unknown } | null;
    if (typeof r !== "object" || r === null || typeof r.uri !== "string") return bad(`roots[${i}] has no string "uri".`);
    if (r.name !== undefined && typeof r.name !== "string") bad(`roots[${i}].name is not a string.`);
    return { ...(r as Root) };
  });
}
