// What a tool can ask of its client, for one call: ctx.elicit, ctx.sample, ctx.roots, ctx.step and
// ctx.supports. Live requests on 2025-era connections, recorded input requests under replay on
// 2026-07-28. The checks are the same on both paths; what differs is who refuses a client without the
// capability (we do on 2025 eras, with a tool error; the SDK does on 2026-07-28, with -32021 naming it,
// when the round goes out).
import type { McpServer, Root, ServerContext } from "@modelcontextprotocol/server";
import { compileForm } from "../schema/compiled.js";
import type { SchemaInput } from "../schema/normalize.js";
import type { ProtocolRevision } from "../schema/types.js";
import { form, type FieldBuilder } from "../schema/builders.js";
import type { Infer } from "../schema/infer.js";
import { clientCapabilities, supportsFeature, type ClientFeature } from "./capabilities.js";
import { elicitValidated, type AskFn, type ElicitOptions, type ElicitOutcome } from "./elicit.js";
import { InputUnavailableError, MissingCapabilityError } from "./input-errors.js";
import { ProgressKeepAlive, sendLive } from "./live.js";
import type { ReplayRun } from "./rounds/replay.js";
import { cachedRoots, checkRootsResult, type RootsOptions } from "./roots.js";
import { checkSampleParams, checkSampleResult, usesTools, type SampleOptions, type SampleParams, type SampleResult } from "./sample.js";
import { urlInputs, type UrlCall, type UrlInputs } from "./url/elicit-url.js";
import { liveUrlFlow } from "./url/live-url.js";
import { replayUrlFlow } from "./url/replay-url.js";

/** ctx.elicitUrl, ctx.connect and ctx.collect (URL mode, with createElicitation({ urlKit })) are in UrlInputs. */
export interface ClientInputs extends UrlInputs {
  /** Asks the person to fill a form; the answer is validated before you see it. */
  elicit<S extends SchemaInput>(message: string, form: S, options?: ElicitOptions<Infer<S>>): Promise<ElicitOutcome<Infer<S>>>;
  /**
   * One question, one field: `ctx.ask("Proceed?", yesNo())`, `ctx.ask("Seat?", choice(["window", "aisle"]))`.
   * The accepted answer is the field's value itself, typed; an optional field may come back undefined.
   */
  ask<T, R extends boolean>(
    message: string,
    field: FieldBuilder<T, R>,
    options?: ElicitOptions<R extends true ? T : T | undefined>,
  ): Promise<ElicitOutcome<R extends true ? T : T | undefined>>;
  /** Runs `fn` once per tool call, even when the handler is replayed; its result must be JSON. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /** Asks the client's model for a message (sampling/createMessage); checked before it is sent and when it comes back. */
  sample<P extends SampleParams>(params: P, options?: SampleOptions): Promise<SampleResult<P>>;
  /** The client's roots (roots/list). */
  roots(options?: RootsOptions): Promise<Root[]>;
  /** Whether this call's client can be asked for `feature`: it declared it, and the revision has it. */
  supports(feature: ClientFeature): boolean;
}

/** The kit's settings the inputs need. */
export interface InputSettings {
  /** How long a 2025-era request waits for the person. */
  timeoutMs: number;
  progressIntervalMs: number;
  /** How many times to ask in all when answers fail validation. */
  attempts: number;
}

/** How a 2025-era call runs ctx.step: at once, or through the call ledger when a fleet may finish the call elsewhere. */
export type LiveStep = <T>(name: string, fn: () => T | Promise<T>) => Promise<T>;

export function liveInputs(
  server: McpServer,
  ctx: ServerContext,
  protocol: ProtocolRevision,
  settings: InputSettings,
  urlCall?: UrlCall,
  liveStep?: LiveStep,
): ClientInputs {
  const caps = clientCapabilities(server, ctx, protocol);
  const supports = (feature: ClientFeature) => supportsFeature(caps, protocol, feature);
  const keepAlive = new ProgressKeepAlive(ctx, settings.progressIntervalMs);
  const { timeoutMs } = settings;
  const urlMode = supports("elicitation.url");
  const url = urlInputs(urlCall, server, ctx, protocol, (call, ask) =>
    liveUrlFlow(server, ctx, protocol, urlMode, keepAlive, call, ask, { timeoutMs }),
  );
  return callInputs(url, {
    supports,
    elicit(message, form, opts = {}) {
      if (!supports("elicitation.form")) {
        const declared = server.server.getClientCapabilities()?.elicitation !== undefined;
        throw new InputUnavailableError(message, compileForm(form).fields, declared ? "form-mode elicitation" : "elicitation");
      }
      const ask: AskFn = async (params, _attempt, judge) =>
        judge(await sendLive(server, ctx, keepAlive, "elicitation/create", params, message, opts.timeoutMs ?? timeoutMs));
      return elicitValidated(ask, protocol, message, form, opts.attempts ?? settings.attempts, opts.validate);
    },
    // A live call runs once, unless its instance dies and another finishes it (fleets: see kit.ts).
    step: liveStep ?? (async (_name, fn) => fn()),
    async sample<P extends SampleParams>(params: P, options: SampleOptions = {}) {
      const sent = checkSampleParams(params, protocol);
      const needs = usesTools(sent) ? "sampling.tools" : "sampling";
      if (!supports(needs)) throw new MissingCapabilityError(needs, "sampling/createMessage");
      const method = "sampling/createMessage";
      return checkSampleResult<SampleResult<P>>(
        await sendLive(server, ctx, keepAlive, method, sent, method, options.timeoutMs ?? timeoutMs),
      );
    },
    async roots(options: RootsOptions = {}) {
      if (!supports("roots")) throw new MissingCapabilityError("roots", "roots/list");
      const listChanged = (caps.roots as { listChanged?: unknown }).listChanged === true;
      return cachedRoots(server, listChanged, () =>
        sendLive(server, ctx, keepAlive, "roots/list", {}, "roots/list", options.timeoutMs ?? timeoutMs),
      );
    },
  });
}

export function replayInputs(
  server: McpServer,
  ctx: ServerContext,
  run: ReplayRun,
  settings: InputSettings,
  urlCall?: UrlCall,
): ClientInputs {
  const caps = clientCapabilities(server, ctx, "2026-07-28");
  const urlMode = supportsFeature(caps, "2026-07-28", "elicitation.url");
  const url = urlInputs(urlCall, server, ctx, "2026-07-28", (call, ask) => replayUrlFlow(ctx, run, urlMode, call, ask));
  return callInputs(url, {
    supports: (feature) => supportsFeature(caps, "2026-07-28", feature),
    elicit(message, form, opts = {}) {
      // The journal keeps each answer's verdict (validated content, or why it was refused), never the raw answer.
      const ask: AskFn = (params, attempt, judge) =>
        run.request(
          "elicitation/create",
          params,
          judge,
          opts.key === undefined ? undefined : attempt === 1 ? opts.key : `${opts.key}-${attempt}`,
        );
      return elicitValidated(ask, "2026-07-28", message, form, opts.attempts ?? settings.attempts, opts.validate);
    },
    step: (name, fn) => run.step(name, fn),
    // run.request is reached synchronously, so requests made together (Promise.all) share one round.
    async sample<P extends SampleParams>(params: P, options: SampleOptions = {}) {
      const sent = checkSampleParams(params, "2026-07-28");
      return run.request("sampling/createMessage", sent, checkSampleResult<SampleResult<P>>, options.key);
    },
    // No list_changed exists on 2026-07-28 to tell a cache it went stale: every call asks.
    async roots(options: RootsOptions = {}) {
      return run.request("roots/list", {}, checkRootsResult, options.key);
    },
  });
}

// One form per field builder: the schema caches (fields, encodings) are keyed by the form object.
const askForms = new WeakMap<object, ReturnType<typeof form>>();
const askForm = (field: FieldBuilder<unknown, boolean>) => {
  let made = askForms.get(field);
  if (!made) askForms.set(field, (made = form({ answer: field })));
  return made;
};

/**
 * The inputs of one call: the form, sampling and roots methods, the URL-mode ones, and ctx.ask in terms
 * of ctx.elicit (a one-field form whose accepted answer is the field's value).
 */
function callInputs(url: UrlInputs, inputs: Omit<ClientInputs, "ask" | keyof UrlInputs>): ClientInputs {
  // Copied onto the object just made, never spread into a new literal with more keys after the spread:
  // V8 builds that literal on a slow path, about 3 µs, and a context is made on every call and round.
  const { elicitUrl, connect, collect } = url;
  return Object.assign(inputs, {
    elicitUrl,
    connect,
    collect,
    async ask(message, field, options = {}) {
      const { validate, ...rest } = options;
      type Answer = { answer?: never };
      const outcome = await inputs.elicit(message, askForm(field), {
        ...rest,
        ...(validate ? { validate: (content: Answer) => validate(content.answer as never) } : {}),
      });
      return outcome.action === "accept" ? { action: "accept", content: (outcome.content as Answer).answer as never } : outcome;
    },
  } satisfies Pick<ClientInputs, "ask" | keyof UrlInputs>);
}
