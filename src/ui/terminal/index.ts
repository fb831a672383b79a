// terminalUI: the interactive renderer of the UI contract for a terminal, on @inquirer/prompts
// (questions), ora (the wait spinner) and open (the system browser, only after consent, imported then).
import type { ElicitationUI, FormAnswer, FormRequest, SamplingUI, UIContext } from "../../client/ui.js";
import { openInBrowser } from "../../common/optional-peers.js";
import { runForm, type OwnForm } from "./form.js";
import { Queue, TerminalIO } from "./io.js";
import { reviewAnswer, reviewRequest } from "./sampling.js";
import { inertLine } from "./style.js";
import { runUrl, waitForUrl } from "./url.js";

export interface TerminalUIOptions {
  /** Where keys come from (default process.stdin). Raw mode is used only while a question is open. */
  input?: NodeJS.ReadableStream;
  /** Where the screens go (default process.stdout). Colour only when it is a terminal that has it. */
  output?: NodeJS.WritableStream;
  /** Opens a URL the person consented to (default: the system browser, via `open`). */
  openUrl?: (url: string) => Promise<void>;
}

/** The full UI contract, with `waitForUrl` always there. */
export type TerminalUI = ElicitationUI & SamplingUI & { waitForUrl: NonNullable<ElicitationUI["waitForUrl"]> };

/**
 * An interactive terminal UI. Questions are asked one at a time: a request that arrives while
 * another is on screen waits its turn. Esc or Ctrl-C cancels the question on screen, and a
 * request the server withdraws (its context.signal aborts) ends as cancelled.
 */
export function terminalUI(options: TerminalUIOptions = {}): TerminalUI {
  const io = new TerminalIO(options.input ?? process.stdin, options.output ?? process.stdout);
  const openUrl = options.openUrl ?? openInBrowser;
  const queue = new Queue();
  return {
    form: (request, context) => queue.run(() => runForm(io, request, context)),
    url: (request, context) => queue.run(() => runUrl(io, request, context, openUrl)),
    waitForUrl: (wait, context) => queue.run(() => waitForUrl(io, wait, context)),
    notice(message, context: Pick<UIContext, "server">) {
      // Not queued behind open questions: shown at once, or right after the prompt on screen.
      const name = inertLine(context.server.name) || "the server";
      io.printSoon(io.style.warning(`Notice (${name}): `) + inertLine(message));
    },
    reviewRequest: (request, context) => queue.run(() => reviewRequest(io, request, context)),
    reviewAnswer: (answer, request, context) => queue.run(() => reviewAnswer(io, answer, request, context)),
  };
}

export type { OwnForm } from "./form.js";

/** Asks a form of the client's own (see OwnForm), worded as such: not "Form from SERVER", no Decline. */
export function askOwnForm(
  request: FormRequest,
  context: UIContext,
  own: OwnForm,
  options: Pick<TerminalUIOptions, "input" | "output"> = {},
): Promise<FormAnswer> {
  return runForm(new TerminalIO(options.input ?? process.stdin, options.output ?? process.stdout), request, context, own);
}
