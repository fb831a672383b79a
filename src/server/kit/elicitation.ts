// createElicitation: register tools whose handlers call `await ctx.elicit(...)` (and ctx.sample,
// ctx.roots) as straight-line code and run unchanged on 2025-06-18, 2025-11-25 (live requests)
// and 2026-07-28 (replay).
import {
  ProtocolError,
  ProtocolErrorCode,
  type CallToolResult,
  type McpServer,
  type RegisteredTool,
  type ServerContext,
  type StandardSchemaV1,
  type StandardSchemaWithJSON,
  type ToolAnnotations,
} from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../../schema/types.js";
import { toToolError } from "../base/tool-errors.js";
import { requestRevision } from "../base/capabilities.js";
import { clientInputs, type ClientInputs } from "../inputs/client-inputs.js";
import { liveDelivery, type LiveStep } from "../live/live-delivery.js";
import { liveCallOf } from "../fleet/calls.js";
import { memoryStore } from "../../store/memory.js";
import type { KeyValueStore } from "../../store/types.js";
import { CallLedger } from "../rounds/ledger.js";
import type { Journal, ReplayRun } from "../rounds/replay.js";
import { ReplayCalls } from "../rounds/call.js";
import { watchDroppedMessages } from "../base/dropped.js";
import { watchRootsChanges } from "../inputs/roots.js";
import { StateGuard } from "../rounds/guard.js";
import {
  checkRouteTag,
  DEFAULT_MAX_STATE_BYTES,
  STATE_KEY_ENV,
  issuerKey,
  RecentStates,
  toStateKey,
  toStateKeys,
  type StateKeyInput,
} from "../base/sealed-state.js";
import { serverName } from "../../common/sdk-internals.js";
import { SuspendedRuns, warmRoundsFor, type WarmRoundOptions } from "../rounds/warm.js";
import { roundDelivery } from "../rounds/round-delivery.js";
import type { Principal } from "../auth/options.js";
import { principalOf as verifiedPrincipal } from "../auth/principal.js";
import type { UrlCall } from "../inputs/url-delivery.js";
import type { UrlKit } from "../url/url-kit.js";
import { ANONYMOUS, callerOwner } from "../base/owner.js";
import { TaskRecords } from "../tasks/records.js";
import { Tasks } from "../tasks/tasks.js";
import { DEFAULT_MAX_TASK_ANSWER_BYTES } from "../tasks/answer-check.js";
import { noteKitStore } from "../base/kit-stores.js";
import { declaresTasks, missingTasksExtension, serveTasks, type TaskSupport } from "../tasks/protocol.js";
import { AppAnswers } from "../apps/app-calls.js";
import { appDelivery } from "../apps/app-delivery.js";
import { appElicitationRequest } from "../apps/app-elicitation.js";

export interface ElicitationOptions {
  /**
   * AES-256 key for requestState (32 bytes, or base64url/hex text), or a ring of keys, newest first: the
   * first seals, every one opens, so a key is rotated by putting the new one in front and dropping the old
   * one after `stateTtlMs`. Share it across a fleet. Default: $MCP_ELICIT_STATE_KEY (comma-separated for a
   * ring), else one random key per process, shared by every kit in it, so a kit made per server factory
   * still opens the states another one sealed; a shared store (`store.shared`) requires one.
   */
  stateKey?: StateKeyInput;
  /**
   * Who seals this server's requestState: a name for the server or deployment (e.g. its public URL).
   * The key that seals is derived from `stateKey` and this name, so a state sealed by another server
   * sharing the key is refused as tampered. Default: $MCP_ELICIT_ISSUER, else the McpServer's name.
   * Members of one fleet share it; two deployments of one server that share a key should not.
   */
  issuer?: string;
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
  /** URL mode: the kit (createUrlKit) whose flows, vault and pages ctx.elicitUrl, ctx.connect, ctx.collect and ctx.elicitFile use. */
  urlKit?: UrlKit;
  /** Tools registered with `task`: how long a task is kept (default 24 hours), in the same `store`. */
  taskTtlMs?: number;
  /**
   * Warm rounds of 2026-07-28: a retry that comes back to this process resumes the handler where it waits
   * instead of replaying it (same checks of its requestState, same result, same single side effects).
   * Held handlers are bounded: `maxHandlers` (default 1,000), `maxBytes` (estimated, default 64 MiB),
   * `idleMs` (default 5 minutes); one let go replays on its retry. `false`: every retry replays.
   * Off by default on Cloudflare Workers, where a promise cannot cross requests (`force: true` holds them anyway).
   */
  warmRounds?: WarmRoundOptions | false;
  /**
   * A fleet member's public route tag (1-32 of A-Z a-z 0-9 _ -; its name, nothing secret), put in front of
   * each requestState it seals (`<tag>.<sealed>`) so a balancer can send the retry back here, where the
   * handler waits (docs/server/put-a-balancer-in-front.md). Not trusted: an altered tag only misroutes
   * the retry, which then replays. Default: $MCP_ELICIT_ROUTE_TAG, else none.
   */
  routeTag?: string;
  /** How often task clients are asked to poll (default 1 s). */
  taskPollIntervalMs?: number;
  /**
   * The largest answer a task stores, in bytes of its JSON (default 256 KiB): a larger one is refused
   * -32602 naming this limit, and the question stays open.
   */
  maxTaskAnswerBytes?: number;
  /**
   * How long a task's runner holds it without renewing (default 30 s): a task whose process died is picked
   * up after this. Also how long a run waits for a ctx.step another runner holds before trying again later.
   */
  taskLeaseMs?: number;
  /**
   * Hosts that show MCP Apps but cannot be asked (the io.modelcontextprotocol/ui extension and no elicitation:
   * claude.ai, Claude Desktop, ChatGPT): their questions are answered in the kit's form app, which every tool
   * lists for those callers only (docs/design/apps.md). `false`: such a call fails as on any client without
   * elicitation. Default true.
   */
  apps?: boolean;
  /**
   * App-rendered elicitation (SEP-3118, a draft: off until it settles). `true`: the server declares
   * `extensions["io.modelcontextprotocol/ui"].elicitation`, and each form request to a host that declares the same
   * (with form elicitation and the MCP App MIME type) carries `_meta.ui.resourceUri` of the kit's form app, which
   * the host renders in place of its own form; the answer comes back as any form answer does, checked the same
   * way. A host that cannot show the app falls back to its own form. Default false.
   */
  appElicitation?: boolean;
}

/**
 * The handler's context: the SDK's, plus from ClientInputs (inputs/client-inputs.ts) straight-line
 * `ctx.elicit(message, form, options?)`, `ctx.step(name, fn)`, `ctx.sample(params, options?)`,
 * `ctx.roots(options?)` and `ctx.supports(feature)`.
 */
export type ElicitContext = ServerContext &
  ClientInputs & {
    /** The revision this call is served on. */
    protocol: ProtocolRevision;
    /**
     * Who is calling, when `serveHttp(factory, { auth })` verified a bearer token for this request
     * (or a verifier of your own reported `extra.sub`); undefined otherwise.
     */
    principal?: Principal;
  };

type Args<In> = In extends StandardSchemaWithJSON ? StandardSchemaV1.InferOutput<In> : Record<string, never>;

export interface ElicitToolConfig<In extends StandardSchemaWithJSON | undefined> {
  title?: string;
  description: string;
  inputSchema?: In;
  annotations?: ToolAnnotations;
  _meta?: Record<string, unknown>;
  /**
   * Runs the tool as a task (the io.modelcontextprotocol/tasks extension, on 2026-07-28) for clients that
   * take tasks: "optional" runs it in the call for the others, "required" refuses them (-32021). `start`:
   * "call" (default) makes the task at once; "detach" asks the first questions in the call's own rounds
   * and makes the task when the handler calls `ctx.detach()`.
   */
  task?: TaskSupport | { support: TaskSupport; start?: "call" | "detach" };
}

export type ElicitToolHandler<In extends StandardSchemaWithJSON | undefined> = (
  args: Args<In>,
  ctx: ElicitContext,
) => CallToolResult | Promise<CallToolResult>;

/**
 * What kits share by default within one process: the state key and the call ledger's store, each made on
 * first use (the key when the first state is sealed or opened): Workers forbid random numbers and timers in
 * global scope, where a kit made at module scope is constructed.
 */
let processKey: Buffer | undefined;
let processStore: KeyValueStore | undefined;
const PROCESS_KEY = () => (processKey ??= toStateKey(undefined));
const PROCESS_STORE = () => (processStore ??= memoryStore());

const DEFAULTS = {
  stateTtlMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
  progressIntervalMs: 15_000,
  attempts: 2,
  taskTtlMs: 24 * 60 * 60_000,
  taskPollIntervalMs: 1_000,
  taskLeaseMs: 30_000,
};

export function defaultPrincipal(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  if (!auth) return ANONYMOUS;
  const { sub, issuer } = (auth.extra ?? {}) as { sub?: unknown; issuer?: unknown };
  // The issuer too: two authorization servers may both have a user "alice".
  if (typeof sub === "string") return typeof issuer === "string" ? `sub:${issuer} ${sub}` : `sub:${sub}`;
  return `client:${auth.clientId}`;
}

/** A task's arguments as its tool's schema parses them (again on each run: the task keeps them as sent). */
async function parseArguments(schema: StandardSchemaWithJSON, tool: string, raw: unknown): Promise<unknown> {
  const parsed = await schema["~standard"].validate(raw ?? {});
  if (parsed.issues) {
    const problems = parsed.issues.map((issue) => issue.message).join("; ");
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid arguments for tool ${tool}: ${problems}`);
  }
  return parsed.value;
}

/** The environment variable read for the requestState key when `stateKey` is not given. */
export { STATE_KEY_ENV } from "../base/sealed-state.js";
/** The environment variable read for the issuer when `issuer` is not given. */
export const ISSUER_ENV = "MCP_ELICIT_ISSUER";
/** The environment variable read for the route tag when `routeTag` is not given. */
export const ROUTE_TAG_ENV = "MCP_ELICIT_ROUTE_TAG";

/** The kit's key ring: the one given, else $MCP_ELICIT_STATE_KEY, else the process's random key (refused with a shared store), made when first needed. */
function stateKeyRing(options: ElicitationOptions): () => Buffer[] {
  const fromEnv = process.env[STATE_KEY_ENV]?.trim();
  if (options.stateKey !== undefined) {
    const ring = toStateKeys(options.stateKey);
    return () => ring;
  }
  if (fromEnv) {
    const ring = toStateKeys(fromEnv.split(",").map((k) => k.trim()));
    return () => ring;
  }
  if (options.store?.shared === true)
    throw new Error(
      `createElicitation: the store is shared by several processes (a fleet), but no stateKey was given: each process would seal requestState with its own random key and refuse the others'. Give every member the same stateKey (32 bytes, e.g. from $${STATE_KEY_ENV}).`,
    );
  return () => [PROCESS_KEY()];
}

/**
 * A kit for tools that ask their client: `kit.registerTool` gives each handler `ctx.elicit`, `ctx.ask`,
 * `ctx.step`, `ctx.sample`, `ctx.roots` and `ctx.supports`, on every protocol revision.
 *
 * @example
 * ```ts region=examples/server-basics.ts#createElicitation
 * const elicitation = createElicitation({ timeoutMs: 10 * 60_000 }); // once per process: holds the requestState key
 * ```
 */
export function createElicitation(options: ElicitationOptions = {}) {
  const settings = {
    ...DEFAULTS,
    ...options,
    maxStateBytes: options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES,
    formRequest: options.appElicitation ? appElicitationRequest : undefined,
  };
  const ringOf = stateKeyRing(options);
  const principalOf = options.principal ?? defaultPrincipal;
  // Ledger entries outlive every state that can name them.
  const store = options.store ?? PROCESS_STORE();
  const ledger = new CallLedger(store, settings.stateTtlMs + 60_000);
  // A task's steps are kept as long as the task. A run that finds a step still running elsewhere waits
  // at most a lease for it, then leaves the task working and tries again later.
  const taskLedger = new CallLedger(store, settings.taskTtlMs + 60_000, settings.taskLeaseMs);
  const tasks = new Tasks(new TaskRecords(store, settings.taskLeaseMs), taskLedger, {
    ttlMs: settings.taskTtlMs,
    pollIntervalMs: settings.taskPollIntervalMs,
    maxAnswerBytes: settings.maxTaskAnswerBytes ?? DEFAULT_MAX_TASK_ANSWER_BYTES,
  });
  // A task belongs to its creator's principal; an anonymous one to its 2025-era session, as URL flows do.
  const taskOwner = (ctx: ServerContext) => callerOwner(principalOf(ctx), ctx) ?? ANONYMOUS;
  // Checked now, so a bad bound fails here rather than at the first tool.
  // Off on Cloudflare Workers unless forced: a promise cannot cross requests there (warm.ts).
  const warm = warmRoundsFor(options.warmRounds, settings.stateTtlMs);
  const fixedIssuer = options.issuer ?? (process.env[ISSUER_ENV]?.trim() || undefined);
  const routeTag = options.routeTag ?? (process.env[ROUTE_TAG_ENV]?.trim() || undefined);
  if (routeTag !== undefined) checkRouteTag(routeTag);
  // One sealer per issuer, its keys derived once; each remembers only the states it sealed itself.
  const sealers = new Map<string, ReplayCalls>();
  const replayCallsFor = (server: McpServer): ReplayCalls => {
    const issuer = fixedIssuer ?? serverName(server.server);
    let calls = sealers.get(issuer);
    if (!calls) {
      // Derived when the first state is sealed or opened (a tool registered at module scope makes no key).
      let keys: Buffer[] | undefined;
      const keysOf = () => (keys ??= ringOf().map((key) => issuerKey(key, issuer)));
      const { stateTtlMs: ttlMs, maxStateBytes: maxBytes } = settings;
      calls = new ReplayCalls(
        ledger,
        {
          get key() {
            return keysOf()[0]!;
          },
          get ring() {
            return keysOf();
          },
          recent: new RecentStates(),
          ttlMs,
          maxBytes,
          routeTag,
        },
        (ctx, tool, args) => ({
          principal: principalOf(ctx),
          tool,
          args,
        }),
        warm && new SuspendedRuns(warm),
      );
      sealers.set(issuer, calls);
    }
    return calls;
  };

  /** The handler's context on each path: the SDK's, plus what the tool can ask (inputs/), over that path's delivery. */
  // A 2025-era call of a fleet session is journaled when every member reads the ledger: its steps' values
  // are kept there under the call's fleet-wide id, so a member that adopts the session after this one died
  // runs the call again to its end (fleet/calls.ts) without running a finished step twice.
  const journaled = options.store?.shared === true;
  const liveStepFor = (ctx: ServerContext): LiveStep | undefined => {
    const live = journaled ? liveCallOf(ctx) : undefined;
    if (!live) return undefined;
    live.journaled();
    return (name, fn) => ledger.step(live.call, name, fn, false, live.rerun);
  };
  const contextFor = (
    server: McpServer,
    ctx: ServerContext,
    protocol: ProtocolRevision,
    run?: ReplayRun,
    url?: UrlCall,
    inTask = false,
    app = false,
  ): ElicitContext => {
    const rounds =
      run && (app ? appDelivery(server, ctx, run, protocol) : roundDelivery(server, ctx, run, inTask ? { protocol } : undefined));
    const delivery = rounds ?? liveDelivery(server, ctx, protocol, settings, liveStepFor(ctx));
    const inputs = clientInputs(delivery, settings, url);
    // Object.assign rather than two spreads: V8 copies into a fresh literal many times faster, and a
    // context is made on every call and every round.
    const ectx = Object.assign({}, ctx, inputs) as ElicitContext;
    ectx.protocol = protocol;
    ectx.principal = verifiedPrincipal(ctx);
    // A warm round resumes the handler in a later request: its context then is that request's (its
    // signal, its envelope), as a replay's would be.
    if (rounds && !inTask)
      run.onResume = (next) => {
        rounds.rebind(next);
        Object.assign(ectx, next, inputs);
        ectx.principal = verifiedPrincipal(next);
      };
    return ectx;
  };
  // This kit's guard in front of each server's tools/call, made with the server's first tool.
  const guards = new WeakMap<McpServer, StateGuard>();
  const guardOf = (server: McpServer): StateGuard => {
    let guard = guards.get(server);
    if (!guard) guards.set(server, (guard = new StateGuard(server)));
    return guard;
  };
  const apps = new AppAnswers({ enabled: options.apps !== false, appElicitation: options.appElicitation === true });
  const urlCallFor = (ctx: ServerContext, tool: string, args: unknown): UrlCall | undefined =>
    options.urlKit && { kit: options.urlKit, tool, args, who: principalOf(ctx), used: new Set() };

  return {
    /**
     * Registers a tool on an SDK McpServer whose handler gets `ctx.elicit`, `ctx.step`, `ctx.sample`, `ctx.roots` and `ctx.supports`.
     *
     * @example
     * ```ts region=examples/server-basics.ts#registerTool
     * elicitation.registerTool(server, "book_trip", {
     *   description: "Book a trip after the traveler confirms",
     *   inputSchema: z.object({ destination: z.string() }),
     * }, async ({ destination }, ctx) => {
     *   const answer = await ctx.elicit(`Confirm your ${destination} booking`, form({
     *     confirmBooking: yesNo({ description: "Flights + Hotel = $3,000" }),
     *     seatPreference: choice({ window: "Window", aisle: "Aisle" }).optional(),
     *   }));
     *   if (answer.action !== "accept" || !answer.content.confirmBooking) {
     *     return { content: [{ type: "text", text: "Nothing was booked." }] };
     *   }
     *   // Runs once per call, even when a 2026-07-28 client makes the handler replay.
     *   const ref = await ctx.step("reserve", () => `BCN-${answer.content.seatPreference ?? "any"}`);
     *   return { content: [{ type: "text", text: `Booked ${ref} (protocol ${ctx.protocol})` }] };
     * });
     * ```
     */
    registerTool<In extends StandardSchemaWithJSON | undefined = undefined>(
      server: McpServer,
      name: string,
      config: ElicitToolConfig<In>,
      handler: ElicitToolHandler<In>,
    ): RegisteredTool {
      const calls = replayCallsFor(server);
      noteKitStore(server, store);
      const task = typeof config.task === "string" ? { support: config.task } : config.task;
      const call = async (args: unknown, ectx: ElicitContext, url: UrlCall | undefined) => {
        let result: CallToolResult;
        try {
          result = await handler(args as Args<In>, ectx);
        } catch (error) {
          return toToolError(error);
        }
        // The call is over: a later call with the same arguments starts new URL flows.
        if (url) await Promise.all([...url.used].map((key) => url.kit.flows.unalias(key)));
        return result;
      };
      const run = async (args: unknown, ctx: ServerContext) => {
        const protocol = requestRevision(server, ctx);
        const url = urlCallFor(ctx, name, args);
        const guarded = guard.callOf(ctx);
        // A 2025-11-25 client asks for a task with the call's `task` param (experimental tasks).
        if (task && protocol === "2025-11-25" && guarded?.taskParam !== undefined) {
          const clientCapabilities = server.server.getClientCapabilities();
          guarded.created = await tasks.create(ctx, name, guarded.args, taskOwner(ctx), { protocol, clientCapabilities });
          return { content: [] }; // what McpServer checks; the guard answers with the handle
        }
        // A host that shows apps but cannot be asked: each round ends the call with the form app (apps/).
        if (apps.answers(server, ctx, protocol))
          return apps.run(server, name, guarded?.args ?? {}, () =>
            calls.run(ctx, name, guarded, (run) => call(args, contextFor(server, ctx, protocol, run, url, false, true), url)),
          );
        if (protocol !== "2026-07-28") return call(args, contextFor(server, ctx, protocol, undefined, url), url);
        // A task is bound to the arguments as sent, as requestState is; its runs parse them again.
        const toTask =
          task && declaresTasks(ctx)
            ? async (journal?: Journal) => {
                const handle = await tasks.create(ctx, name, guarded?.args ?? {}, taskOwner(ctx), { journal });
                if (guarded) guarded.created = handle;
                return handle;
              }
            : undefined;
        if (toTask && task!.start !== "detach") return toTask();
        return calls.run(ctx, name, guarded, (run) => call(args, contextFor(server, ctx, protocol, run, url), url), toTask as never);
      };
      const { task: _task, ...sdkConfig } = config;
      const register = server.registerTool.bind(server) as (n: string, c: object, cb: (...a: unknown[]) => unknown) => RegisteredTool;
      const tool = config.inputSchema
        ? register(name, sdkConfig, (args, ctx) => run(args, ctx as ServerContext))
        : register(name, sdkConfig, (ctx) => run({}, ctx as ServerContext));
      // McpServer.registerTool takes no `execution`; tools/list shows the registered tool's (2025-11-25
      // clients read it to ask for a task; the 2026-07-28 wire drops it).
      if (task) tool.execution = { taskSupport: task.support };
      // After the first registerTool: McpServer installs its tools/call handler then, and the guard wraps it.
      const guard = guardOf(server);
      const admit =
        task?.support === "required"
          ? (ctx: ServerContext) => {
              if (requestRevision(server, ctx) === "2026-07-28" && !declaresTasks(ctx)) throw missingTasksExtension(`the tool "${name}"`);
            }
          : undefined;
      guard.add(name, (ctx, guarded, state) => calls.open(ctx, name, guarded, state), admit);
      apps.add(server, name);
      if (task) {
        tasks.define(name, async (run, ctx, raw, protocol) => {
          const args = config.inputSchema ? await parseArguments(config.inputSchema, name, raw) : {};
          const url = urlCallFor(ctx, name, args);
          return call(args, contextFor(server, ctx, protocol, run, url, true), url);
        });
        serveTasks(server, tasks, taskOwner);
      }
      watchRootsChanges(server);
      watchDroppedMessages(server);
      return tool;
    },
  };
}

export type Elicitation = ReturnType<typeof createElicitation>;
