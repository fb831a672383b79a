// ctx.sample, ctx.roots and ctx.supports for one tool call: live requests on 2025-era connections,
// recorded input requests under replay on 2026-07-28. The checks are the same on both paths; what
// differs is who refuses a client without the capability (we do on 2025 eras, with a tool error;
// the SDK does on 2026-07-28, with -32021 naming it, when the round goes out).
import type { McpServer, Root, ServerContext } from "@modelcontextprotocol/server";
import type { ProtocolRevision } from "../schema/types.js";
import { clientCapabilities, supportsFeature, type ClientFeature } from "./capabilities.js";
import { sendLive, type ProgressKeepAlive } from "./live.js";
import type { ReplayRun } from "./replay.js";
import { MissingCapabilityError } from "./input-errors.js";
import { cachedRoots, checkRootsResult, type RootsOptions } from "./roots.js";
import { checkSampleParams, checkSampleResult, usesTools, type SampleOptions, type SampleParams, type SampleResult } from "./sample.js";

export interface ClientInputs {
  /** Asks the client's model for a message (sampling/createMessage); checked before it is sent and when it comes back. */
  sample<P extends SampleParams>(params: P, options?: SampleOptions): Promise<SampleResult<P>>;
  /** The client's roots (roots/list). */
  roots(options?: RootsOptions): Promise<Root[]>;
  /** Whether this call's client can be asked for `feature`: it declared it, and the revision has it. */
  supports(feature: ClientFeature): boolean;
}

export function liveInputs(server: McpServer, ctx: ServerContext, protocol: ProtocolRevision, keepAlive: ProgressKeepAlive, timeoutMs: number): ClientInputs {
  const caps = clientCapabilities(server, ctx, protocol);
  const supports = (feature: ClientFeature) => supportsFeature(caps, protocol, feature);
  return {
    supports,
    async sample<P extends SampleParams>(params: P, options: SampleOptions = {}) {
      const sent = checkSampleParams(params, protocol);
      const needs = usesTools(sent) ? "sampling.tools" : "sampling";
      if (!supports(needs)) throw new MissingCapabilityError(needs, "sampling/createMessage");
      const method = "sampling/createMessage";
      return checkSampleResult<SampleResult<P>>(await sendLive(server, ctx, keepAlive, method, sent, method, options.timeoutMs ?? timeoutMs));
    },
    async roots(options: RootsOptions = {}) {
      if (!supports("roots")) throw new MissingCapabilityError("roots", "roots/list");
      const listChanged = (caps.roots as { listChanged?: unknown }).listChanged === true;
      return cachedRoots(server, listChanged, () => sendLive(server, ctx, keepAlive, "roots/list", {}, "roots/list", options.timeoutMs ?? timeoutMs));
    },
  };
}

export function replayInputs(server: McpServer, ctx: ServerContext, run: ReplayRun): ClientInputs {
  const caps = clientCapabilities(server, ctx, "2026-07-28");
  return {
    supports: (feature) => supportsFeature(caps, "2026-07-28", feature),
    // run.request is reached synchronously, so requests made together (Promise.all) share one round.
    async sample<P extends SampleParams>(params: P, options: SampleOptions = {}) {
      const sent = checkSampleParams(params, "2026-07-28");
      return checkSampleResult<SampleResult<P>>(await run.request("sampling/createMessage", sent, options.key));
    },
    // No list_changed exists on 2026-07-28 to tell a cache it went stale: every call asks.
    async roots(options: RootsOptions = {}) {
      return checkRootsResult(await run.request("roots/list", {}, options.key));
    },
  };
}
