// Who answers each question the server asks through the gateway: the host, where it declared that
// kind of question and the gateway is told to let it (`--ui host`, the default), or the gateway's own
// page or terminal. `--policy url=web,...` sets it per kind. `app` is `host`, and more: a host that
// renders apps and cannot be asked answers forms and links in the form app (app-answers.ts).
import type { Forward, ServerQuestion } from "../../client/attached.js";
import type { ElicitationUI, SamplingUI } from "../../client/ui.js";
import { InvalidSchemaError } from "../../schema/errors.js";
import { encodeSchema } from "../../schema/encode.js";
import type { ProtocolRevision, RequestedSchema } from "../../schema/types.js";
import { supportsFeature, type ClientFeature } from "../../server/base/capabilities.js";
import { HostError } from "../exit.js";
import { checkHostAnswer, listProblems } from "./host-answer.js";
import type { HostLink, HostLinks } from "./links.js";

export const ANSWERERS = ["host", "app", "web", "terminal"] as const;
export type Answerer = (typeof ANSWERERS)[number];
export const QUESTION_KINDS = ["form", "url", "sampling", "roots"] as const;
export type QuestionKind = (typeof QUESTION_KINDS)[number];

export interface Routing {
  /** --ui: who answers by default. */
  ui: Answerer;
  /** --policy: who answers each kind, where it differs. */
  policy: Partial<Record<QuestionKind, Answerer>>;
}

const isAnswerer = (value: string): value is Answerer => (ANSWERERS as readonly string[]).includes(value);

/** `--ui` and `--policy kind=answerer,…`, checked. */
export function parseRouting(ui: string, policy: string | undefined): Routing {
  if (!isAnswerer(ui)) throw new HostError(`--ui takes ${ANSWERERS.join(", ")}; got ${JSON.stringify(ui)}.`);
  const routing: Routing = { ui, policy: {} };
  for (const entry of (policy ?? "").split(",").filter((e) => e.trim())) {
    const [kind, who] = entry.split("=").map((s) => s.trim());
    if (!kind || !(QUESTION_KINDS as readonly string[]).includes(kind) || !who || !isAnswerer(who))
      throw new HostError(
        `--policy takes KIND=WHO pairs, KIND one of ${QUESTION_KINDS.join(", ")} and WHO one of ${ANSWERERS.join(", ")} (e.g. url=web,sampling=terminal); got ${JSON.stringify(entry)}.`,
      );
    routing.policy[kind as QuestionKind] = who;
  }
  return routing;
}

export const answererOf = (routing: Routing, kind: QuestionKind): Answerer => routing.policy[kind] ?? routing.ui;

/** Whether any question may go to the form app (--ui app, or app in --policy). */
export const appsRouted = (routing: Routing): boolean => answererOf(routing, "form") === "app" || answererOf(routing, "url") === "app";

/** Which of its own UIs the gateway answers `kind` with, when the host does not: web unless told terminal. */
export const localAnswererOf = (routing: Routing, kind: QuestionKind): "web" | "terminal" =>
  answererOf(routing, kind) === "terminal" ? "terminal" : "web";

/** The gateway's own UIs it needs for `routing` (roots need none: they come from --root). */
export function localAnswerersNeeded(routing: Routing): Set<"web" | "terminal"> {
  return new Set((["form", "url", "sampling"] as const).map((kind) => localAnswererOf(routing, kind)));
}

export function kindOf(question: ServerQuestion): QuestionKind {
  if (question.method === "sampling/createMessage") return "sampling";
  if (question.method === "roots/list") return "roots";
  return question.params.mode === "url" ? "url" : "form";
}

function featureOf(question: ServerQuestion): ClientFeature {
  const kind = kindOf(question);
  if (kind === "sampling") return question.params.tools !== undefined ? "sampling.tools" : "sampling";
  return kind === "roots" ? "roots" : kind === "url" ? "elicitation.url" : "elicitation.form";
}

/**
 * The question as the host's revision writes it, or undefined when that revision cannot express it (a
 * multi-select for a 2025-06-18 host): the gateway answers it itself then.
 */
export function forHost(question: ServerQuestion, protocol: ProtocolRevision): ServerQuestion | undefined {
  if (question.method !== "elicitation/create" || protocol !== "2025-06-18") return question;
  const { mode: _form, requestedSchema, ...params } = question.params;
  try {
    return { method: question.method, params: { ...params, requestedSchema: encodeSchema(requestedSchema as RequestedSchema, protocol) } };
  } catch (error) {
    if (error instanceof InvalidSchemaError) return undefined;
    throw error;
  }
}

/** What the router tells the log: the question went to the host. */
export type Routed = (question: ServerQuestion, answer: Promise<Record<string, unknown>>) => void;

/** How many times one question is put to a 2025 host whose answers are invalid before the server is answered cancel. */
export const HOST_ASKS = 3;

/**
 * The host's answer, checked against the question as the server asked it (checkHostAnswer): the server
 * never receives an invalid one. A 2026-07-28 host hears -32602 on its retry (held-calls.ts) and answers
 * again there; a 2025 host's answer is a JSON-RPC result, which cannot be refused, so the question is
 * put to it again, HOST_ASKS times at most, then the server is answered cancel, as attachElicitation
 * answers for its own UI's invalid answer. Each refusal is one line on stderr.
 */
async function askChecked(
  link: HostLink,
  asked: ServerQuestion,
  question: ServerQuestion,
  signal: AbortSignal,
  said: (line: string) => void,
): Promise<Record<string, unknown>> {
  for (let asks = 1; ; asks++) {
    const checked = checkHostAnswer(question, await link.ask(asked, signal), link.protocol);
    if (checked.ok) return checked.answer;
    const why = listProblems(checked.problems);
    if (asks >= HOST_ASKS) {
      said(
        `the host's answer was refused, not sent to the server (${why}); after ${HOST_ASKS} invalid answers the server is answered cancel.`,
      );
      return { action: "cancel" };
    }
    said(
      `the host's answer was refused, not sent to the server (${why}); the question is put to the host again (${asks + 1} of ${HOST_ASKS}).`,
    );
  }
}

/** The `forward` hook of the gateway's client: questions the host may and can answer go to it, and its answers are checked. */
export function routeQuestions(links: HostLinks, routing: Routing, routed?: Routed, said: (line: string) => void = () => {}): Forward {
  return (question, signal) => {
    const who = answererOf(routing, kindOf(question));
    if (who !== "host" && who !== "app") return undefined;
    const link = links.current();
    if (!link || !supportsFeature(link.capabilities, link.protocol, featureOf(question))) return undefined;
    const asked = forHost(question, link.protocol);
    if (!asked) return undefined;
    const answer = askChecked(link, asked, question, signal, said);
    routed?.(question, answer);
    return answer;
  };
}

/** One UI over the gateway's own: each kind of question to the page or the terminal, as routed. */
export function gatewayUI(
  routing: Routing,
  uis: Partial<Record<"web" | "terminal", ElicitationUI & SamplingUI>>,
  links?: HostLinks,
): ElicitationUI & SamplingUI {
  const local = (kind: QuestionKind) => uis[localAnswererOf(routing, kind)]!;
  const url = local("url");
  // A question asked here for a host call is withdrawn when the host stops waiting for that call: its
  // answer could reach nobody (the server, still asking, gets cancel).
  // While it waits for the person, the host is kept waiting too (progress, where it asked for it).
  const whileHostWaits = <C extends { signal: AbortSignal }, T>(context: C, ask: (context: C) => Promise<T>): Promise<T> => {
    const link = links?.current();
    const answered = link?.personAnswering?.();
    const signal = link?.signal ? AbortSignal.any([context.signal, link.signal]) : context.signal;
    return ask({ ...context, signal }).finally(() => answered?.());
  };
  return {
    form: (request, context) => whileHostWaits(context, (c) => local("form").form(request, c)),
    url: (request, context) => whileHostWaits(context, (c) => url.url(request, c)),
    ...(url.waitForUrl ? { waitForUrl: (wait, context) => whileHostWaits(context, (c) => url.waitForUrl!(wait, c)) } : {}),
    ...(url.urlAskedAgain ? { urlAskedAgain: (request, context) => url.urlAskedAgain!(request, context) } : {}),
    notice: (message, context) => local("form").notice(message, context),
    reviewRequest: (request, context) => whileHostWaits(context, (c) => local("sampling").reviewRequest(request, c)),
    reviewAnswer: (answer, request, context) => whileHostWaits(context, (c) => local("sampling").reviewAnswer(answer, request, c)),
  };
}
