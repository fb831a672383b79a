// scriptedUI: answers elicitation and sampling from a list, for non-interactive runs (`elicit call --answers`).
// Entries are used in order; the first unused entry of the right kind whose `match` fits wins:
// `action` entries answer forms and URL requests, `sample` entries answer sampling requests.
import type { ElicitationUI, FormAnswer, SamplingAnswerReview, SamplingRequestReview, SamplingRequestView, SamplingUI, UrlAnswer, UrlWaitOutcome } from "../client/ui.js";
import type { FormContent } from "../schema/types.js";

export interface ScriptedSample {
  /** approve (default): the request goes to the model; deny: it never does. */
  action?: "approve" | "deny";
  /** The answer the server gets: replaces the model's, or stands in for it when no model is configured. */
  text?: string;
  /** Reject the model's answer after seeing it (the server gets an error). */
  rejectAnswer?: boolean;
}

export type ScriptedAnswer =
  | {
      /** A regular expression tested against the (sanitized) message; no match = any message. */
      match?: string;
      action: "accept" | "decline" | "cancel";
      /** The form content, for an accepted form. URL requests take only the action (consent). */
      content?: FormContent;
    }
  | {
      /** A regular expression tested against the request's system prompt and messages. */
      match?: string;
      sample: ScriptedSample;
    };

export interface ScriptedUIOptions {
  /** Where notices go (default: stderr). */
  log?: (line: string) => void;
  /** How long to wait for a consented URL flow (-32042) to complete before giving up (default 5 minutes). */
  urlWaitMs?: number;
}

type Entry = ScriptedAnswer & { re?: RegExp };

const samplingText = (r: SamplingRequestView) => [r.systemPrompt, ...r.messages.map((m) => m.text)].filter(Boolean).join("\n");

export function scriptedUI(
  answers: ScriptedAnswer[],
  options: ScriptedUIOptions = {},
): ElicitationUI & SamplingUI & Required<Pick<ElicitationUI, "waitForUrl">> & { remaining(): ScriptedAnswer[] } {
  const pending: Entry[] = answers.map((a) => ({ ...a, ...(a.match === undefined ? {} : { re: new RegExp(a.match, "u") }) }));
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const take = (kind: "action" | "sample", text: string) => {
    const i = pending.findIndex((a) => kind in a && (!a.re || a.re.test(text)));
    if (i < 0) log(`elicit: no scripted answer matches "${text.replace(/\s+/g, " ").slice(0, 80)}"; answering ${kind === "sample" ? "deny" : "cancel"}.`);
    return i < 0 ? undefined : pending.splice(i, 1)[0];
  };
  // The entry that approved a sampling request also decides on its answer (the client passes the same view).
  const samples = new WeakMap<SamplingRequestView, ScriptedSample>();

  return {
    async form(request): Promise<FormAnswer> {
      const entry = take("action", request.message);
      if (!entry || !("action" in entry)) return { action: "cancel" };
      return entry.action === "accept" ? { action: "accept", content: entry.content ?? {} } : { action: entry.action };
    },
    async url(request): Promise<UrlAnswer> {
      const entry = take("action", request.message);
      return entry && "action" in entry ? entry.action : "cancel";
    },
    // Nobody opens the URL in scripted mode: someone else must finish the flow, so the wait is bounded.
    async waitForUrl(wait, context): Promise<UrlWaitOutcome> {
      const ms = options.urlWaitMs ?? 5 * 60_000;
      log(`elicit: waiting up to ${Math.round(ms / 1000)} s for the flow at ${wait.host} to complete.`);
      let timer: NodeJS.Timeout | undefined;
      const outcome = await Promise.race([
        wait.completed.then(() => "completed" as const),
        new Promise<"cancel">((resolve) => {
          timer = setTimeout(() => resolve("cancel"), ms);
          context.signal.addEventListener("abort", () => resolve("cancel"), { once: true });
        }),
      ]);
      clearTimeout(timer);
      if (outcome === "cancel") log(`elicit: the flow at ${wait.host} did not complete; giving up.`);
      return outcome;
    },
    async reviewRequest(request): Promise<SamplingRequestReview> {
      const entry = take("sample", samplingText(request));
      if (!entry || !("sample" in entry)) return { action: "deny" };
      samples.set(request, entry.sample);
      return { action: entry.sample.action ?? "approve" };
    },
    async reviewAnswer(answer, request): Promise<SamplingAnswerReview> {
      const sample = samples.get(request);
      if (!sample || sample.rejectAnswer) return { action: "reject" };
      if (sample.text !== undefined) return { action: "approve", text: sample.text };
      if (!answer) {
        log("elicit: no model is configured and the scripted answer has no text; rejecting the model request.");
        return { action: "reject" };
      }
      return { action: "approve" };
    },
    notice(message) {
      log(`elicit: ${message}`);
    },
    remaining: () => pending.map(({ re: _re, ...a }) => a as ScriptedAnswer),
  };
}
