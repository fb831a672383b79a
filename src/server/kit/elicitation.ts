// createElicitation: register tools whose handlers call `await ctx.elicit(...)` (and ctx.sample,
// ctx.roots) as straight-line code and run unchanged on 2025-06-18, 2025-11-25 (live requests)
// and 2026-07-28 (replay). The kit composes the ways of asking (inputs/way.ts): tasks, live requests,
// rounds; kit-tools.ts registers each tool and hands each call to the first way that takes it.
import type { McpServer, RegisteredTool, ServerContext, StandardSchemaWithJSON } from "@modelcontextprotocol/server";
import type { KeyValueStore } from "../../store/types.js";
import type { StateKeyInput } from "../base/sealed-state.js";
import { ANONYMOUS, callerOwner } from "../base/owner.js";
import { LiveCall } from "../live/live-call.js";
import { CallLedger } from "../rounds/ledger.js";
import { RoundCall } from "../rounds/round-call.js";
import { warmRoundsFor, type WarmRoundOptions } from "../rounds/warm.js";
import { LegacyTaskCall, TaskCall } from "../tasks/task-call.js";
import { AppCall } from "../apps/app-call.js";
import type { UrlKit } from "../url/url-kit.js";
import { fleetLiveSteps, kitSettings, kitTasks, PROCESS_STORE, roundSeal, stateKeyRing } from "./kit-parts.js";
import { KitTools } from "./kit-tools.js";
import type { ElicitToolConfig, ElicitToolHandler } from "./tool-types.js";

export type { ElicitContext } from "../inputs/way.js";
export type { ElicitToolConfig, ElicitToolHandler } from "./tool-types.js";
/** The environment variable read for the requestState key when `stateKey` is not given. */
export { STATE_KEY_ENV } from "../base/sealed-state.js";
export { ISSUER_ENV, ROUTE_TAG_ENV } from "./kit-parts.js";

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

export function defaultPrincipal(ctx: ServerContext): string {
  const auth = ctx.http?.authInfo;
  if (!auth) return ANONYMOUS;
  const { sub, issuer } = (auth.extra ?? {}) as { sub?: unknown; issuer?: unknown };
  // The issuer too: two authorization servers may both have a user "alice".
  if (typeof sub === "string") return typeof issuer === "string" ? `sub:${issuer} ${sub}` : `sub:${sub}`;
  return `client:${auth.clientId}`;
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
  const settings = kitSettings(options);
  const ringOf = stateKeyRing(options);
  const principalOf = options.principal ?? defaultPrincipal;
  const store = options.store ?? PROCESS_STORE();
  // Ledger entries outlive every state that can name them.
  const ledger = new CallLedger(store, settings.stateTtlMs + 60_000);
  const tasks = kitTasks(store, settings);
  // Checked now, so a bad bound fails here rather than at the first tool.
  // Off on Cloudflare Workers unless forced: a promise cannot cross requests there (warm.ts).
  const warm = warmRoundsFor(options.warmRounds, settings.stateTtlMs);
  const rounds = new RoundCall(settings, ledger, roundSeal(options, settings, ringOf), principalOf, warm);
  // A task belongs to its creator's principal; an anonymous one to its 2025-era session, as URL flows do.
  const taskOwner = (ctx: ServerContext) => callerOwner(principalOf(ctx), ctx) ?? ANONYMOUS;
  // The order the ways are offered each call: a 2025-11-25 call that asks for a task, a host that answers
  // in the form app, a 2025-era call, a 2026-07-28 call that becomes a task, then rounds.
  const ways = [
    new LegacyTaskCall(tasks, taskOwner),
    new AppCall(rounds, { enabled: options.apps !== false, appElicitation: options.appElicitation === true }),
    new LiveCall(settings, fleetLiveSteps(ledger, options.store?.shared === true)),
    new TaskCall(settings, tasks, taskOwner, rounds),
    rounds,
  ];
  const tools = new KitTools(ways, store, principalOf, options.urlKit);

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
      return tools.register(server, name, config, handler);
    },
  };
}

export type Elicitation = ReturnType<typeof createElicitation>;
