// `elicit gateway --log FILE`: what each server asked through the gateway and what was answered, one
// JSON object a line, for the person. Secrets stay out: an answer to a field that looks like a password,
// key, token or card is written as "[redacted]", a link as its origin and path (no query, no fragment),
// and a model's request or answer by its verdict only.
import { closeSync, constants, fchmodSync, fstatSync, openSync, writeSync } from "node:fs";
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
  /** Closes the file; what is answered after this is not written. */
  close(): void;
  /** The router's hook: a question that went to the host. */
  routed: Routed;
  /** The gateway's own UI, with each answer written down. */
  wrap<U extends ElicitationUI & SamplingUI>(ui: U, answeredBy: (kind: "form" | "url" | "sampling") => string): U;
}

/** The refusal of `--log FILE`, naming the file and why. */
const refused = (file: string, why: string) => new HostError(`--log ${JSON.stringify(file)}: ${why}`);

/**
 * Opens `file` once, for appending, mode 0600: it says what the person answered. A symbolic link is
 * refused (O_NOFOLLOW: whoever can write the folder could point it elsewhere), and so is anything but a
 * regular file. An existing file others may read is narrowed to 0600, as a new one is made: the person
 * asked for their answers there, and nobody else is to read them.
 */
function openLog(file: string): { fd: number; narrowed?: number } {
  // O_NONBLOCK: a FIFO with no reader fails at once (ENXIO) instead of hanging the gateway; no effect on a file.
  const flags = constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0);
  let fd: number;
  try {
    fd = openSync(file, flags, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Linux and macOS say ELOOP for a final symbolic link under O_NOFOLLOW, FreeBSD EMLINK.
    if (code === "ELOOP" || code === "EMLINK")
      throw refused(file, "is a symbolic link; give the file itself (a link could point the log anywhere).");
    throw refused(file, `cannot write there (${code ?? (error as Error).message}).`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw refused(file, "is not a regular file.");
    const mode = stat.mode & 0o777;
    if ((mode & 0o077) === 0) return { fd };
    try {
      fchmodSync(fd, 0o600);
    } catch (error) {
      throw refused(
        file,
        `others may read it (mode ${mode.toString(8)}) and it cannot be made 0600 (${(error as NodeJS.ErrnoException).code}).`,
      );
    }
    return { fd, narrowed: mode };
  } catch (error) {
    closeSync(fd);
    throw error;
  }
}

/** Opens (creates, appends to) `file` for the gateway's run; `said` hears a mode it narrowed. */
export function questionLog(file: string, said: (line: string) => void = () => {}): QuestionLog {
  const { fd, narrowed } = openLog(file);
  if (narrowed !== undefined) said(`--log ${JSON.stringify(file)}: others could read it (mode ${narrowed.toString(8)}); it is 0600 now.`);
  let open = true;
  // Each line is one write on the file opened above, never a new open by its name.
  const write = (entry: Entry) => {
    if (open) writeSync(fd, JSON.stringify({ time: new Date().toISOString(), ...entry }) + "\n");
  };
  const asked = (question: ServerQuestion): Entry => {
    const kind = kindOf(question);
    const entry: Entry = { kind };
    if (question.method === "elicitation/create") entry.message = text(question.params.message);
    if (kind === "url") entry.url = linkOf(question.params.url);
    return entry;
  };
  return {
    close() {
      if (!open) return;
      open = false;
      closeSync(fd);
    },
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
