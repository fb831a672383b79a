// scriptedUI: answers elicitation and sampling from a list, for non-interactive runs (`elicit call --answers`).
// Entries are used in order; the first unused entry of the right kind whose `match` fits wins:
// `action` entries answer forms and URL requests, `sample` entries answer sampling requests.
import { MAX_LABEL_LENGTH, sanitizeText } from "../common/sanitize.js";
import type {
  ElicitationUI,
  FormAnswer,
  SamplingAnswerReview,
  SamplingRequestReview,
  SamplingRequestView,
  SamplingUI,
  UrlAnswer,
  UrlWait,
  UrlWaitOutcome,
} from "../client/ui.js";
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
      /** A regular expression tested, ignoring case, against the (sanitized) message; no match = any message. */
      match?: string;
      action: "accept" | "decline" | "cancel";
      /** The form content, for an accepted form; fields left out get the form's defaults. URL requests take only the action (consent). */
      content?: FormContent;
      /**
       * URL requests that fail the call with -32042: retry the call this many milliseconds after consent,
       * unless the server's completion notification comes first (default URL_RETRY_AFTER_MS).
       */
      retryAfterMs?: number;
    }
  | {
      /** A regular expression tested, ignoring case, against the request's system prompt and messages. */
      match?: string;
      sample: ScriptedSample;
    };

export interface ScriptedUIOptions {
  /** Where notices go (default: stderr). */
  log?: (line: string) => void;
}

/**
 * How long a scripted URL flow waits for the server's completion notification before retrying the call.
 * Nobody opens the URL in scripted mode and servers need not notify (2026-07-28 cannot), so it is short.
 */
export const URL_RETRY_AFTER_MS = 3000;

type Entry = ScriptedAnswer & { index: number; re?: RegExp };

const samplingText = (r: SamplingRequestView) => [r.systemPrompt, ...r.messages.map((m) => m.text)].filter(Boolean).join("\n");
const excerpt = (text: string) => JSON.stringify(text.replace(/\s+/g, " ").slice(0, 80));

/**
 * A renderer that answers from a list (tests, CI, `elicit call --answers`): the first unused entry whose `match`
 * fits answers, and each answer is logged with the entry that gave it.
 *
 * @example
 * ```ts region=examples/quickstart-host.ts#choose-ui
 * // At a terminal you answer the form; without one (CI, this file's test) a script does.
 * const answers = [{ match: "^Confirm", action: "accept" as const, content: { confirmBooking: true, seatPreference: "window" } }];
 * const ui = process.stdin.isTTY ? terminalUI() : scriptedUI(answers);
 * ```
 */
export function scriptedUI(
  answers: ScriptedAnswer[],
  options: ScriptedUIOptions = {},
): ElicitationUI & SamplingUI & Required<Pick<ElicitationUI, "waitForUrl">> & { remaining(): ScriptedAnswer[] } {
  const pending: Entry[] = answers.map((a, index) => ({
    ...a,
    index,
    ...(a.match === undefined ? {} : { re: new RegExp(a.match, "iu") }),
  }));
  const log = options.log ?? ((line: string) => process.stderr.write(line + "\n"));
  const take = (kind: "action" | "sample", text: string) => takeEntry(pending, kind, text, log);
  // The entry that approved a sampling request also decides on its answer (the client passes the same view).
  // Owned by this UI, keyed by the client's view; weak, since a request whose answer never comes (the model
  // failed) must leave nothing behind.
  const samples = new WeakMap<SamplingRequestView, ScriptedSample>();
  // The wait after a URL consent follows the entry that consented (url() is always followed by its wait).
  let retryAfterMs = URL_RETRY_AFTER_MS;

  return {
    async form(request): Promise<FormAnswer> {
      const entry = take("action", request.message);
      if (!entry || !("action" in entry)) return { action: "cancel" };
      return entry.action === "accept" ? { action: "accept", content: entry.content ?? {} } : { action: entry.action };
    },
    async url(request): Promise<UrlAnswer> {
      // No person reads the consent screen: its warnings go to the log before any answer is chosen.
      const host = sanitizeText(request.analysis.host ?? request.analysis.url, { maxLength: MAX_LABEL_LENGTH, multiline: false });
      for (const w of request.analysis.warnings)
        log(`elicit: warning about ${host}: ${sanitizeText(w.message, { maxLength: MAX_LABEL_LENGTH * 2, multiline: false })}`);
      const entry = take("action", request.message);
      if (!entry || !("action" in entry)) return "cancel";
      retryAfterMs = entry.retryAfterMs ?? URL_RETRY_AFTER_MS;
      return entry.action;
    },
    // Nobody finishes the flow in scripted mode unless someone else does: wait briefly, then retry the call.
    waitForUrl: (wait, context) => retryUnlessCompleted(wait, context.signal, retryAfterMs, log),
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
    remaining: () => pending.map(({ re: _re, index: _index, ...a }) => a as ScriptedAnswer),
  };
}

/** The first unused entry of `kind` that fits `text`, taken; says which one answered (or that none did), so a person sees why. */
function takeEntry(pending: Entry[], kind: "action" | "sample", text: string, log: (line: string) => void): Entry | undefined {
  const i = pending.findIndex((a) => kind in a && (!a.re || a.re.test(text)));
  if (i < 0) {
    log(`elicit: no scripted answer matches ${excerpt(text)}; answering ${kind === "sample" ? "deny" : "cancel"}.`);
    return undefined;
  }
  const entry = pending.splice(i, 1)[0]!;
  const answer = "action" in entry ? entry.action : (entry.sample.action ?? "approve");
  log(
    `elicit: answers entry [${entry.index}] (${entry.match === undefined ? "no match: any message" : `match ${JSON.stringify(entry.match)}`}) answered ${excerpt(text)}: ${answer}.`,
  );
  return entry;
}

/** The wait after a URL consent: "completed" if the server says so within `ms`, else "retry" (or "cancel" on abort). */
async function retryUnlessCompleted(wait: UrlWait, signal: AbortSignal, ms: number, log: (line: string) => void): Promise<UrlWaitOutcome> {
  log(`elicit: retrying the call in ${formatMs(ms)} unless ${wait.host} reports the flow complete first.`);
  let timer: NodeJS.Timeout | undefined;
  const outcome = await Promise.race([
    wait.completed.then(() => "completed" as const),
    new Promise<"retry" | "cancel">((resolve) => {
      timer = setTimeout(() => resolve("retry"), ms);
      if (signal.aborted) resolve("cancel");
      signal.addEventListener("abort", () => resolve("cancel"), { once: true });
    }),
  ]);
  clearTimeout(timer);
  return outcome;
}

const formatMs = (ms: number) => (ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`);
