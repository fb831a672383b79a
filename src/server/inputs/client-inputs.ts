// What a tool can ask of its client, for one call: ctx.elicit, ctx.ask, ctx.step, ctx.sample, ctx.roots,
// ctx.supports, and the URL-mode inputs. Each is written once, here, against a Delivery (delivery.ts),
// which says how a question reaches the client and its answer comes back; the checks are the same
// whichever way a call asks.
import type { ClientCapabilities, Root } from "@modelcontextprotocol/server";
import { compileForm } from "../../schema/compiled.js";
import type { SchemaInput } from "../../schema/normalize.js";
import { form, type FieldBuilder } from "../../schema/builders.js";
import type { Infer } from "../../schema/infer.js";
import { supportsFeature, type ClientFeature } from "../base/capabilities.js";
import { elicitValidated, type AskFn, type ElicitOptions, type ElicitOutcome } from "./elicit.js";
import { InputUnavailableError, MissingCapabilityError, SessionRequiredError } from "../base/input-errors.js";
import { checkRootsResult, type RootsOptions } from "./roots.js";
import { checkSampleParams, checkSampleResult, usesTools, type SampleOptions, type SampleParams, type SampleResult } from "./sample.js";
import { urlInputs, type UrlInputs } from "./elicit-url.js";
import type { UrlCall } from "./url-delivery.js";
import type { Delivery } from "./delivery.js";

/** ctx.elicitUrl, ctx.connect, ctx.collect and ctx.elicitFile (URL mode, with createElicitation({ urlKit })) are in UrlInputs. */
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
    options?: ElicitOptions<Answer<T, R>>,
  ): Promise<ElicitOutcome<Answer<T, R>>>;
  /** Runs `fn` once per tool call, even when the handler is replayed; its result must be JSON. */
  step<T>(name: string, fn: () => T | Promise<T>): Promise<T>;
  /**
   * In a tool registered with `task: { start: "detach" }`: the questions asked so far were answered in the
   * call's own rounds, and the rest runs as a task (when the client takes tasks; otherwise it goes on in the call).
   */
  detach(): Promise<void>;
  /** Asks the client's model for a message (sampling/createMessage); checked before it is sent and when it comes back. */
  sample<P extends SampleParams>(params: P, options?: SampleOptions): Promise<SampleResult<P>>;
  /** The client's roots (roots/list). */
  roots(options?: RootsOptions): Promise<Root[]>;
  /** Whether this call's client can be asked for `feature`: it declared it, and the revision has it. */
  supports(feature: ClientFeature): boolean;
}

/** ctx.ask's accepted answer: the field's value, or undefined for an optional field left empty. */
type Answer<T, R extends boolean> = R extends true ? T : T | undefined;

/** The kit's settings the inputs need. */
export interface InputSettings {
  /** How long a live request waits for the person. */
  timeoutMs: number;
  progressIntervalMs: number;
  /** How many times to ask in all when answers fail validation. */
  attempts: number;
  /**
   * What a form request carries besides the form, for the caller of this call (the kit's app-rendered
   * elicitation: `_meta.ui.resourceUri`); the params unchanged where nothing is added.
   */
  formRequest?: (params: Record<string, unknown>, capabilities: ClientCapabilities) => Record<string, unknown>;
}

/** A call without a session cannot ask anything: said before any capability is looked at. */
function refuseWithoutSession(delivery: Delivery, what: string): void {
  if (delivery.sessionless) throw new SessionRequiredError(what, delivery.sessionless);
}

/** ctx.supports: the client declared `feature` for this call, and the call's revision has it. */
export function supports(delivery: Delivery, feature: ClientFeature): boolean {
  return supportsFeature(delivery.capabilities, delivery.protocol, feature);
}

/** ctx.elicit: the form, asked again with each field's error until the answer passes (within `attempts`). */
export function elicit<S extends SchemaInput>(
  delivery: Delivery,
  settings: InputSettings,
  message: string,
  form: S,
  options: ElicitOptions<Infer<S>> = {},
): Promise<ElicitOutcome<Infer<S>>> {
  refuseWithoutSession(delivery, message);
  if (delivery.refusesUnsupported && !supports(delivery, "elicitation.form")) {
    const declared = delivery.capabilities.elicitation !== undefined;
    throw new InputUnavailableError(message, compileForm(form).fields, declared ? "form-mode elicitation" : "elicitation");
  }
  const { key, timeoutMs = settings.timeoutMs } = options;
  // A round journals each answer's verdict (validated content, or why it was refused), never the raw answer.
  const ask: AskFn = (params, attempt, judge) =>
    delivery.request("elicitation/create", settings.formRequest?.(params, delivery.capabilities) ?? params, judge, {
      key: key === undefined || attempt === 1 ? key : `${key}-${attempt}`,
      timeoutMs,
      what: message,
    });
  return elicitValidated(ask, delivery.protocol, message, form, options.attempts ?? settings.attempts, options.validate);
}

// One form per field builder: the schema caches (fields, encodings) are keyed by the form object. Stays a
// module WeakMap: keyed by the author's field objects, shared by every kit and call that asks with them.
const askForms = new WeakMap<object, ReturnType<typeof form>>();
const askForm = (field: FieldBuilder<unknown, boolean>) => {
  let made = askForms.get(field);
  if (!made) askForms.set(field, (made = form({ answer: field })));
  return made;
};

/** ctx.ask: ctx.elicit of a one-field form, whose accepted answer is the field's value. */
export async function ask<T, R extends boolean>(
  delivery: Delivery,
  settings: InputSettings,
  message: string,
  field: FieldBuilder<T, R>,
  options: ElicitOptions<Answer<T, R>> = {},
): Promise<ElicitOutcome<Answer<T, R>>> {
  const { validate, ...rest } = options;
  type Content = { answer?: Answer<T, R> };
  const outcome = await elicit(delivery, settings, message, askForm(field), {
    ...rest,
    ...(validate ? { validate: (content: Content) => validate(content.answer as Answer<T, R>) } : {}),
  });
  return outcome.action === "accept" ? { action: "accept", content: (outcome.content as Content).answer as Answer<T, R> } : outcome;
}

/** ctx.sample: the request checked against the revision before it goes, the answer checked before the tool sees it. */
export async function sample<P extends SampleParams>(
  delivery: Delivery,
  settings: InputSettings,
  params: P,
  options: SampleOptions = {},
): Promise<SampleResult<P>> {
  const sent = checkSampleParams(params, delivery.protocol);
  const needs = usesTools(sent) ? "sampling.tools" : "sampling";
  refuseWithoutSession(delivery, "sampling/createMessage");
  if (delivery.refusesUnsupported && !supports(delivery, needs)) throw new MissingCapabilityError(needs, "sampling/createMessage");
  const method = "sampling/createMessage";
  return delivery.request(method, sent, checkSampleResult<SampleResult<P>>, {
    key: options.key,
    timeoutMs: options.timeoutMs ?? settings.timeoutMs,
    what: method,
  });
}

/** ctx.roots: the client's roots, checked, from what the delivery may keep or asked now. */
export async function roots(delivery: Delivery, settings: InputSettings, options: RootsOptions = {}): Promise<Root[]> {
  refuseWithoutSession(delivery, "roots/list");
  if (delivery.refusesUnsupported && !supports(delivery, "roots")) throw new MissingCapabilityError("roots", "roots/list");
  const how = { key: options.key, timeoutMs: options.timeoutMs ?? settings.timeoutMs, what: "roots/list" };
  return delivery.roots(() => delivery.request("roots/list", {}, checkRootsResult, how));
}

/**
 * The inputs of one call over `delivery`. Every request is reached synchronously from the input's call,
 * so requests a handler makes together (Promise.all) go out together in one 2026-07-28 round.
 */
export function clientInputs(delivery: Delivery, settings: InputSettings, urlCall?: UrlCall): ClientInputs {
  const { elicitUrl, connect, collect, elicitFile } = urlInputs(urlCall, delivery);
  return {
    elicit: (message, form, options) => elicit(delivery, settings, message, form, options),
    ask: (message, field, options) => ask(delivery, settings, message, field, options),
    step: (name, fn) => delivery.step(name, fn),
    detach: () => delivery.detach?.() ?? Promise.resolve(),
    sample: (params, options) => sample(delivery, settings, params, options),
    roots: (options) => roots(delivery, settings, options),
    supports: (feature) => supports(delivery, feature),
    elicitUrl,
    connect,
    collect,
    elicitFile,
  };
}
