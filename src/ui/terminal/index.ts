// terminalUI: the interactive renderer of the UI contract for a terminal, on @inquirer/prompts
// (questions), ora (the wait spinner) and the one browser opener (only after consent).
import type { ElicitationUI, FormAnswer, FormRequest, SamplingUI, UIContext } from "../../client/ui.js";
import { browserOpener } from "../../common/open-url.js";
import { hostForDisplay } from "../../client/url-safety/analyze.js";
import { linkRenewer } from "../../client/url-renew.js";
import { runForm, type OwnForm } from "./form.js";
import { Queue, TerminalIO } from "./io.js";
import { reviewAnswer, reviewRequest } from "./sampling.js";
import { inertLine } from "./style.js";
import { runUrl, waitForUrl } from "./url.js";
import { WaitLine } from "./waiting.js";

export interface TerminalUIOptions {
  /** Where keys come from (default process.stdin). Raw mode is used only while a question is open. */
  input?: NodeJS.ReadableStream;
  /** Where the screens go (default process.stdout). Colour only when it is a terminal that has it. */
  output?: NodeJS.WritableStream;
  /**
   * Opens a URL the person consented to, rejecting when nothing opened (default: BROWSER, else the system's
   * opener via `open`; see browserOpener). A rejection is shown as "Open this address yourself". `false`:
   * no browser is ever opened (a host's --no-browser): the person is asked whether they will open the link
   * themselves, and the address is printed for them.
   */
  openUrl?: ((url: string) => Promise<void>) | false;
}

/** The full UI contract, with `waitForUrl` always there, and what the terminal shows between questions. */
export type TerminalUI = ElicitationUI &
  SamplingUI & {
    waitForUrl: NonNullable<ElicitationUI["waitForUrl"]>;
    /**
     * Shows what is awaited while `work` (e.g. a tool call) runs: after 2 s with no question on screen, a
     * spinner names `what` ("SERVER (TOOL)"), or the page the person accepted during it. Returns `work`.
     */
    waitingFor<T>(what: string, work: Promise<T>): Promise<T>;
    /** Takes that spinner off the screen (the command is ending, e.g. at Ctrl-C). */
    stopWaiting(): void;
  };

/**
 * An interactive terminal UI. Questions are asked one at a time: a request that arrives while
 * another is on screen waits its turn. Esc or Ctrl-C cancels the question on screen, and a
 * request the server withdraws (its context.signal aborts) ends as cancelled.
 *
 * @example
 * ```ts region=examples/quickstart-host.ts#choose-ui
 * // At a terminal you answer the form; without one (CI, this file's test) a script does.
 * const answers = [{ match: "^Confirm", action: "accept" as const, content: { confirmBooking: true, seatPreference: "window" } }];
 * const ui = process.stdin.isTTY ? terminalUI() : scriptedUI(answers);
 * ```
 */
export function terminalUI(options: TerminalUIOptions = {}): TerminalUI {
  const io = new TerminalIO(options.input ?? process.stdin, options.output ?? process.stdout);
  const openUrl = options.openUrl === false ? false : (options.openUrl ?? browserOpener());
  const wait = new WaitLine(io, openUrl);
  const queue = new Queue((busy) => wait.setBusy(busy));
  return {
    form: (request, context) => queue.run(() => runForm(io, request, context)),
    url: (request, context) =>
      queue.run(async () => {
        const answer = await runUrl(io, request, context, openUrl);
        if (answer === "accept")
          wait.pageAccepted(
            hostForDisplay(request.analysis) + (request.analysis.port ? `:${request.analysis.port}` : ""),
            linkRenewer(request.analysis.url),
          );
        return answer;
      }),
    waitForUrl: (wait, context) => queue.run(() => waitForUrl(io, wait, context, openUrl)),
    notice(message, context: Pick<UIContext, "server">) {
      // Not queued behind open questions: shown at once, or right after the prompt on screen.
      const name = inertLine(context.server.name) || "the server";
      io.printSoon(io.style.warning(`Notice (${name}): `) + inertLine(message));
    },
    reviewRequest: (request, context) => queue.run(() => reviewRequest(io, request, context)),
    reviewAnswer: (answer, request, context) => queue.run(() => reviewAnswer(io, answer, request, context)),
    waitingFor: (what, work) => wait.track(what, work),
    stopWaiting: () => wait.stop(),
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
