// `elicit gateway --log FILE`: what each server asked through the gateway and what was answered, one
// JSON object a line, for the person. Secrets stay out: an answer to a field that looks like a password,
// key, token or card is written as "[redacted]", a link as its origin and path (no query, no fragment),
// and a model's request or answer by its verdict only.
import { appendFileSync, openSync, closeSync } from "node:fs";
import type { ServerQuestion } from "../../client/attached.js";
import type { ElicitationUI, SamplingUI, UIContext } from "../../client/ui.js";
import { describeFields } from "../../schema/compiled.js";
import { sanitizeText } from "../../common/sanitize.js";
import type { RequestedSchema } from "../../schema/types.js";
import { HostError } from "../exit.js";
import { kindOf, type Routed } from "./route.js";

export const REDACTED = "[redacted]";

type Entry = Record<string, unknown>;

/** A link as the log keeps it: no query or fragment, where tokens travel. */
function linkOf(url: unknown): string | undefined {
  try {
    const parsed = new URL(String(url));
    return `${parsed.origin}${parsed.pathname}`;
  } catch {
    return undefined;
  }
}

/** An answer's content with each sensitive field's value replaced. */
function redact(schema: unknown, content: unknown): unknown {
  if (!content || typeof content !== "object") return undefined;
  let sensitive: Set<string>;
  try {
    sensitive = new Set(
      describeFields(schema as RequestedSchema)
        .filter((f) => f.sensitive)
        .map((f) => f.name),
    );
  } catch {
    return REDACTED; // a form the log cannot read: keep none of its answer
  }
  return Object.fromEntries(Object.entries(content).map(([k, v]) => [k, sensitive.has(k) ? REDACTED : v]));
}

const text = (value: unknown) => sanitizeText(value, { maxLength: 500 });

export interface QuestionLog {
  /** The router's hook: a question that went to the host. */
  routed: Routed;
  /** The gateway's own UI, with each answer written down. */
  wrap<U extends ElicitationUI & SamplingUI>(ui: U, answeredBy: (kind: "form" | "url" | "sampling") => string): U;
}

/** Opens (creates, appends to) `file`, mode 0600: it says what the person answered. */
export function questionLog(file: string): QuestionLog {
  try {
    closeSync(openSync(file, "a", 0o600));
  } catch (error) {
    throw new HostError(
      `--log ${JSON.stringify(file)}: cannot write there (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  const write = (entry: Entry) => appendFileSync(file, JSON.stringify({ time: new Date().toISOString(), ...entry }) + "\n");
  const asked = (question: ServerQuestion): Entry => {
    const kind = kindOf(question);
    const entry: Entry = { kind };
    if (question.method === "elicitation/create") entry.message = text(question.params.message);
    if (kind === "url") entry.url = linkOf(question.params.url);
    return entry;
  };
  return {
    routed(question, answer) {
      answer.then(
        (result) =>
          write({
            ...asked(question),
            answeredBy: "host",
            ...(kindOf(question) === "form" || kindOf(question) === "url"
              ? { action: result.action, ...(result.content ? { content: redact(question.params.requestedSchema, result.content) } : {}) }
              : { action: "answered" }),
          }),
        () => write({ ...asked(question), answeredBy: "host", action: "error" }),
      );
    },
    wrap(ui, by) {
      const server = (context: UIContext) => context.server.name;
      return {
        ...ui,
        form: async (request, context) => {
          const answer = await ui.form(request, context);
          write({
            kind: "form",
            server: server(context),
            message: request.message,
            answeredBy: by("form"),
            action: answer.action,
            ...(answer.action === "accept" ? { content: redact(request.schema, answer.content) } : {}),
          });
          return answer;
        },
        url: async (request, context) => {
          const answer = await ui.url(request, context);
          write({
            kind: "url",
            server: server(context),
            message: request.message,
            url: linkOf(request.analysis.url),
            answeredBy: by("url"),
            action: answer,
          });
          return answer;
        },
        reviewRequest: async (request, context) => {
          const review = await ui.reviewRequest(request, context);
          write({ kind: "sampling", step: "request", server: server(context), answeredBy: by("sampling"), action: review.action });
          return review;
        },
        reviewAnswer: async (answer, request, context) => {
          const review = await ui.reviewAnswer(answer, request, context);
          write({ kind: "sampling", step: "answer", server: server(context), answeredBy: by("sampling"), action: review.action });
          return review;
        },
      };
    },
  };
}
