// The 2026-07-28 way of asking: a call's questions go out in input_required rounds and come back in
// its retries, each with a requestState this kit sealed (call.ts: the journal, the call ledger, warm
// rounds). The kit's guard opens that state before the tool runs.
import type { CallToolResult, InputRequiredResult, McpServer, ServerContext } from "@modelcontextprotocol/server";
import type { InputSettings } from "../inputs/client-inputs.js";
import { handlerContext, type ElicitContext, type KitTool, type ToolCall, type WayOfAsking } from "../inputs/way.js";
import { issuerKey, RecentStates, type StateBinding } from "../base/sealed-state.js";
import { serverName } from "../../common/sdk-internals.js";
import { principalOf as verifiedPrincipal } from "../auth/principal.js";
import { ReplayCalls } from "./call.js";
import type { CallLedger } from "./ledger.js";
import type { Journal, ReplayRun } from "./replay.js";
import { roundDelivery, type RoundDelivery } from "./round-delivery.js";
import { SuspendedRuns, type warmBounds } from "./warm.js";

/** How this kit seals requestState. */
export interface RoundSeal {
  /** The kit's key ring, made when first needed (sealed-state.ts: a kit made at module scope makes no key). */
  ringOf: () => Buffer[];
  /** Who seals, when fixed (else each server's name). */
  issuer?: string;
  routeTag?: string;
  ttlMs: number;
  maxBytes: number;
}

export class RoundCall implements WayOfAsking {
  /** One sealer per issuer, its keys derived once; each remembers only the states it sealed itself. */
  private readonly sealers = new Map<string, ReplayCalls>();

  constructor(
    private readonly settings: InputSettings,
    private readonly ledger: CallLedger,
    private readonly seal: RoundSeal,
    /** Who calls: each state is bound to it. */
    private readonly principalOf: (ctx: ServerContext) => string,
    /** Warm rounds' bounds, when on (warm.ts). */
    private readonly warm?: ReturnType<typeof warmBounds>,
  ) {}

  register({ server, name, guard }: KitTool): void {
    const calls = this.callsFor(server);
    guard.add(name, { open: (ctx, guarded, state) => calls.open(ctx, name, guarded, state) });
  }

  matches(call: ToolCall): boolean {
    return call.protocol === "2026-07-28";
  }

  /**
   * Runs one round of `call`; `detach`, when the call may become a task, makes it one on ctx.detach().
   * `deliver`: how the round's questions reach the person, when not in an input_required result (apps/).
   */
  run<Handle extends Record<string, unknown> = never>(
    call: ToolCall,
    detach?: (journal: Journal) => Promise<Handle>,
    deliver: (run: ReplayRun) => RoundDelivery = (run) => roundDelivery(call.tool.server, call.ctx, run),
  ): Promise<CallToolResult | InputRequiredResult | Handle> {
    const { tool, ctx, args, url, guarded } = call;
    return this.callsFor(tool.server).run(
      ctx,
      tool.name,
      guarded,
      (run) => tool.handle(args, this.contextFor(call, run, deliver(run)), url),
      detach,
    );
  }

  private contextFor({ ctx, protocol, url }: ToolCall, run: ReplayRun, delivery: RoundDelivery): ElicitContext {
    const { ectx, inputs } = handlerContext(ctx, protocol, delivery, this.settings, url);
    // A warm round resumes the handler in a later request: its context then is that request's (its
    // signal, its envelope), as a replay's would be.
    run.onResume = (next) => {
      delivery.rebind(next);
      Object.assign(ectx, next, inputs);
      ectx.principal = verifiedPrincipal(next);
    };
    return ectx;
  }

  private callsFor(server: McpServer): ReplayCalls {
    const issuer = this.seal.issuer ?? serverName(server.server);
    let calls = this.sealers.get(issuer);
    if (!calls) this.sealers.set(issuer, (calls = this.sealerOf(issuer)));
    return calls;
  }

  private sealerOf(issuer: string): ReplayCalls {
    const { ringOf, ttlMs, maxBytes, routeTag } = this.seal;
    // Derived when the first state is sealed or opened (a tool registered at module scope makes no key).
    let keys: Buffer[] | undefined;
    const keysOf = () => (keys ??= ringOf().map((key) => issuerKey(key, issuer)));
    const sealOptions = {
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
    };
    const bindingFor = (ctx: ServerContext, tool: string, args: unknown): StateBinding => ({
      principal: this.principalOf(ctx),
      tool,
      args,
    });
    return new ReplayCalls(this.ledger, sealOptions, bindingFor, this.warm && new SuspendedRuns(this.warm));
  }
}
