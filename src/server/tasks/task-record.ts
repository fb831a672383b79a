// A task as the store keeps it (records.ts), and the creator's auth kept with it (never its token).
import type { AuthInfo, CallToolResult } from "@modelcontextprotocol/server";
import type { InputRequest, Journal } from "../rounds/replay.js";

export type TaskStatus = "working" | "input_required" | "completed" | "failed" | "cancelled";

export const TERMINAL: readonly TaskStatus[] = ["completed", "failed", "cancelled"];

export interface TaskRecord {
  taskId: string;
  /** The tool the task runs, and the arguments as the client sent them. */
  tool: string;
  args: unknown;
  /**
   * Who made it: the kit's principal, or for an anonymous caller its 2025-era HTTP session (owner.ts).
   * Every tasks/* request must come from the same owner.
   */
  owner: string;
  /** The creator's verified token as the handler saw it, less the token itself: every run acts for the creator, whoever polls. */
  auth?: CreatorAuth;
  /** The token of the lease that last claimed the record (lease.ts). */
  holder?: string;
  /** Since when runs have found a step still claimed by a runner whose lease lapsed (tasks.ts gives up after a while). */
  stepBusySince?: string;
  /** The revision the task was made on: 2026-07-28 (the extension) or 2025-11-25 (experimental tasks). */
  protocol: "2025-11-25" | "2026-07-28";
  /** The creating request's _meta envelope (its revision and declared capabilities), for every later run. */
  envelope: Record<string, unknown>;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  /** The replay journal: settled answers, finished steps, what was asked. */
  journal: Journal;
  /** The outstanding input requests, while input_required. */
  inputRequests?: Record<string, InputRequest>;
  /**
   * While working: the keys of the answers the run takes (their answers are kept beside the record until
   * the run has settled them), so that a run after a death takes the same answers again.
   */
  answering?: string[];
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
}

/** The AuthInfo of the request that made a task, as stored: no token (a secret, and it expires), the resource as text. */
export type CreatorAuth = Omit<AuthInfo, "token" | "resource"> & { resource?: string };

export function creatorAuth(auth: AuthInfo | undefined): CreatorAuth | undefined {
  if (!auth) return undefined;
  const { token: _secret, resource, ...rest } = auth;
  return { ...rest, scopes: [...auth.scopes], ...(resource ? { resource: resource.href } : {}) };
}

/** The creator's AuthInfo for a run's context; `token` is empty: the creator's token is never kept. */
export function runAuth(auth: CreatorAuth): AuthInfo {
  const { resource, ...rest } = auth;
  return { ...rest, scopes: [...auth.scopes], token: "", ...(resource ? { resource: new URL(resource) } : {}) };
}
