// createElicitation: register tools whose handlers call `await ctx.elicit(...)` (and ctx.sample,
// ctx.roots) as straight-line code and run unchanged on 2025-06-18, 2025-11-25 (live requests)
// and 2026-07-28 (replay).
import {
  inputRequired,
  PROTOCOL_VERSION_META_KEY,
  type CallToolResult,
  type McpServer,
  type RegisteredTool,
  type ServerContext,
  type StandardSchemaV1,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import { describeFields } from "../schema/fields.js";
import { setOwn } from "../schema/own.js";
import { toRequestedSchema, type SchemaInput } from "../schema/normalize.js";
import type { ProtocolRevision } from "../schema/types.js";
import type { AnswerOf } from "../schema/validate.js";
import { elicitValidated, type ElicitOptions, type ElicitOutcome } from "./elicit.js";
import { toToolError } from "./errors.js";
import { InputUnavailableError } from "./input-errors.js";
import { liveInputs, replayInputs, type ClientInputs } from "./inputs.js";
import { ProgressKeepAlive, sendLive } from "./live.js";
import { memoryStore } from "../store/memory.js";
import type { KeyValueStore } from "../store/types.js";
import { CallLedger } from "./ledger.js";
import { emptyJournal, ReplayRun, type InputMethod, type Journal } from "./replay.js";
import { watchDroppedMessages } from "./dropped.js";
import { watchRootsChanges } from "./roots.js";
import { guardedCall, installStateGuard } from "./state-guard.js";
import { DEFAULT_MAX_STATE_BYTES, open, seal, StateError, toStateKey, type StateBinding } from "./state.js";

export interface ElicitationOptions {
  /**
   * AES-256 key for requestState (32 bytes, or base64url/hex text). Share it across a fleet. Default: one
   * random key per process, shared by every kit in it, so a kit made per server factory still opens
   * the states another one sealed.
   */
  stateKey?: string | Uint8Array;
  /** How long a requestState stays valid: the time a person has to answer on 2026-07-28 (default 30 minutes). */
  stateTtlMs?: number;
  /** Largest requestState, in bytes (default 256 KiB). */
  maxStateBytes?: number;
  /** How long to wait for a person on 2025-era connections (default 10 minutes). */
  timeoutMs?: number;
  /** How often to send progress while waiting, when the caller gave a progress token (default 15 s). */
  progressIntervalMs?: number;
  /** How many times to ask in all when answers fail validation (default 2). */
  attempts?: number;
  /** Who is calling; requestState is bound to it. Default: the auth subject, else the OAuth client id, else "anonymous". */
  principal?: (ctx: ServerContext) => string;
  /**
   * Where 2026-07-28 calls are recorded (the latest round, ctx.step results, the final result) so that
   * an old requestState cannot run a step twice. Default: memory, for one process; `sqliteStore(file)`
   * survives restarts; a fleet needs a store all instances share (and one stateKey).
   */
  store?: KeyValueStore;
}

/** What the state guard hands a replayed call: its journal, and the result when the call already finished. */
interface OpenedCall {
  journal: Journal;
  done?: CallToolResult;
}

/**
 * The handler's context: the SDK's, plus straight-line `ctx.elicit(message, form, options?)` and
 * `ctx.step(name, fn)`, and from ClientInputs (inputs.ts) `ctx.sample(params, options?)`,
 * `ctx.roots(options?)` and `ctx.supports(feature)`.
 */
export type ElicitContext = ServerContext & ClientInputs & {
  /** The revision this call is served on. */
  protocol: ProtocolRevision;
  /** Asks the person to fill a form; the answer is validated before you see it. */
  elicit<S extends SchemaInput>(message: string, form: S, options?: ElicitOptions): Promise<ElicitOutcome<AnswerOf<S>>>;
  /** Runs `fn` once per tool call, even when the handler is replayed; its result must be JSON. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
};

type Args<In> = In extends StandardSchemaWithJSON ? StandardSchemaV1.InferOutput<In> : Record<string, never>;

export interface ElicitToolConfig<In extends StandardSchemaWithJSON | undefined> {
  title?: string;
  description: string;
  inputSchema?: In;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
}

export type ElicitToolHandler<In extends StandardSchemaWithJSON | undefined> = (
  args: Args<In>,
  ctx: ElicitContext,
) => CallToolResult | Promise<CallToolResult>;

/** What kits share by default within one process: the state key and the call ledger's store. */
const PROCESS = { key: toStateKey(undefined), store: memoryStore() };

const DEFAULTS = { stateTtlMs: 30 * 60_000, timeoutMs: 10 * 60_000, progressIntervalMs: 15_000, attempts: 2 };

export function defaultPrincipal(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  if (!auth) return "anonymous";
  const sub = (auth.extra as { sub?: unknown } | undefined)?.sub;
  return typeof sub === "string" ? `sub:${sub}` : `client:${auth.clientId}`;
}

/** The revision a call is served on: the 2026 envelope, else what initialize negotiated. */
function revisionOf(server: McpServer, ctx: ServerContext): ProtocolRevision {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  if (envelope?.[PROTOCOL_VERSION_META_KEY] === "2026-07-28") return "2026-07-28";
  const negotiated = server.server.getNegotiatedProtocolVersion?.();
  return negotiated !== undefined && negotiated >= "2025-11-25" ? "2025-11-25" : "2025-06-18";
}

export function createElicitation(options: ElicitationOptions = {}) {
  const settings = { ...DEFAULTS, ...options, maxStateBytes: options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES };
  const key = options.stateKey === undefined ? PROCESS.key : toStateKey(options.stateKey);
  const principalOf = options.principal ?? defaultPrincipal;
  const sealOptions = () => ({ key, ttlMs: settings.stateTtlMs, maxBytes: settings.maxStateBytes });
  const bindingFor = (ctx: ServerContext, tool: string, args: unknown): StateBinding => ({ principal: principalOf(ctx), tool, args });
  // Entries outlive every state that can name them.
  const ledger = new CallLedger(options.store ?? PROCESS.store, settings.stateTtlMs + 60_000);

  /** Opens a requestState and checks it against the ledger: a finished call answers with its result, an old round is refused. */
  async function openCall(ctx: ServerContext, tool: string, args: unknown, state: string): Promise<OpenedCall> {
    const journal = open<Journal>(state, bindingFor(ctx, tool, args), sealOptions());
    const done = await ledger.result(journal.call);
    if (done) return { journal, done };
    const latest = await ledger.latestRound(journal.call);
    if (journal.round < latest) {
      throw new StateError("replayed", `it is from round ${journal.round} of this tool call, which has moved on to round ${latest}; use the latest requestState, or call the tool again.`);
    }
    return { journal };
  }

  function liveContext(server: McpServer, ctx: ServerContext, protocol: ProtocolRevision): ElicitContext {
    const keepAlive = new ProgressKeepAlive(ctx, settings.progressIntervalMs);
    const inputs = liveInputs(server, ctx, protocol, keepAlive, settings.timeoutMs);
    return {
      ...ctx,
      ...inputs,
      protocol,
      elicit<S extends SchemaInput>(message: string, form: S, opts: ElicitOptions = {}) {
        if (!inputs.supports("elicitation.form")) {
          const declared = server.server.getClientCapabilities()?.elicitation !== undefined;
          throw new InputUnavailableError(message, describeFields(toRequestedSchema(form)), declared ? "form-mode elicitation" : "elicitation");
        }
        const ask = (params: Record<string, unknown>) =>
          sendLive(server, ctx, keepAlive, "elicitation/create", params, message, opts.timeoutMs ?? settings.timeoutMs);
        return elicitValidated(ask, protocol, message, form, opts.attempts ?? settings.attempts);
      },
      step: async <T>(_name: string, fn: () => T | Promise<T>) => fn(),
    } as ElicitContext;
  }

  function replayContext(server: McpServer, ctx: ServerContext, run: ReplayRun): ElicitContext {
    return {
      ...ctx,
      ...replayInputs(server, ctx, run),
      protocol: "2026-07-28" as const,
      elicit<S extends SchemaInput>(message: string, form: S, opts: ElicitOptions = {}) {
        const ask = (params: Record<string, unknown>, attempt: number) =>
          run.request("elicitation/create", params, opts.key === undefined ? undefined : attempt === 1 ? opts.key : `${opts.key}-${attempt}`);
        return elicitValidated(ask, "2026-07-28", message, form, opts.attempts ?? settings.attempts);
      },
      step: <T>(name: string, fn: () => T | Promise<T>) => run.step(name, fn),
    } as ElicitContext;
  }

  /** The journal the guard opened from requestState, with the client's answers for last round's keys filed. */
  function restoreJournal(journal: Journal, ctx: ServerContext): Journal {
    const responses = (ctx.mcpReq.inputResponses ?? {}) as Record<string, unknown>;
    for (const key of Object.keys(journal.asked)) {
      if (!Object.hasOwn(journal.answers, key) && Object.hasOwn(responses, key)) setOwn(journal.answers, key, responses[key]);
    }
    return journal;
  }

  async function runReplay(server: McpServer, ctx: ServerContext, tool: string, handler: (ectx: ElicitContext) => Promise<CallToolResult>) {
    // Bound to the arguments as sent (the guard saw them before any schema parsing).
    const guarded = guardedCall(ctx);
    const binding = bindingFor(ctx, tool, guarded?.args ?? {});
    const opened = guarded?.opened as OpenedCall | undefined;
    if (opened?.done) return opened.done;
    const journal = restoreJournal(opened?.journal ?? emptyJournal(), ctx);
    const run = new ReplayRun(journal, (name, fn) => ledger.step(journal.call, name, fn));
    const outcome = await run.run(() => handler(replayContext(server, ctx, run)));
    if (outcome.kind === "done") {
      await ledger.recordResult(journal.call, outcome.result);
      return outcome.result;
    }
    journal.round++;
    await ledger.recordRound(journal.call, journal.round);
    const inputRequests = Object.fromEntries(
      Object.entries(outcome.inputRequests).map(([k, r]) => [k, { method: r.method as InputMethod, params: r.params }]),
    );
    return inputRequired({ inputRequests: inputRequests as never, requestState: seal(outcome.journal, binding, sealOptions()) });
  }

  return {
    /** Registers a tool on an SDK McpServer whose handler gets `ctx.elicit`, `ctx.step`, `ctx.sample`, `ctx.roots` and `ctx.supports`. */
    registerTool<In extends StandardSchemaWithJSON | undefined = undefined>(
      server: McpServer,
      name: string,
      config: ElicitToolConfig<In>,
      handler: ElicitToolHandler<In>,
    ): RegisteredTool {
      const run = async (args: unknown, ctx: ServerContext) => {
        const protocol = revisionOf(server, ctx);
        const call = async (ectx: ElicitContext) => {
          try {
            return await handler(args as Args<In>, ectx);
          } catch (error) {
            return toToolError(error);
          }
        };
        return protocol === "2026-07-28" ? runReplay(server, ctx, name, call) : call(liveContext(server, ctx, protocol));
      };
      const register = server.registerTool.bind(server) as (n: string, c: object, cb: (...a: unknown[]) => unknown) => RegisteredTool;
      const tool = config.inputSchema
        ? register(name, config, (args, ctx) => run(args, ctx as ServerContext))
        : register(name, config, (ctx) => run({}, ctx as ServerContext));
      installStateGuard(server, name, (ctx, args, state) => openCall(ctx, name, args, state));
      watchRootsChanges(server);
      watchDroppedMessages(server);
      return tool;
    },
  };
}

export type Elicitation = ReturnType<typeof createElicitation>;
