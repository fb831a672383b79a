// URL mode: consent to open a link, shown so that a look-alike or disguised address can be spotted,
// and the wait while the person finishes out of band.
import { emitKeypressEvents } from "node:readline";
import { domainToUnicode } from "node:url";
import { confirm } from "@inquirer/prompts";
import ora from "ora";
import type { UIContext, UrlAnswer, UrlRequest, UrlWait, UrlWaitOutcome } from "../../client/ui.js";
import type { UrlAnalysis } from "../../client/url-safety/analyze.js";
import { Cancelled, type TerminalIO } from "./io.js";
import { newLinkLines } from "./new-link.js";
import { indent, inert, inertLine, serverName } from "./style.js";

export async function runUrl(
  io: TerminalIO,
  request: UrlRequest,
  context: UIContext,
  openUrl: ((url: string) => Promise<void>) | false,
): Promise<UrlAnswer> {
  const { style } = io;
  const a = request.analysis;
  const server = serverName(context);
  io.print("", style.bold(`Link from ${style.server(server)}`), indent(inert(request.message)));
  const url = inertLine(a.url);
  if (!a.ok) {
    // attachElicitation refuses these before any UI; a UI given one anyway never offers to open it.
    io.print(
      `  Address: ${url}`,
      style.warning(`Refused: ${inertLine(a.refusal ?? "this address cannot be opened.")}`),
      "Declined: the link was not opened.",
    );
    return "decline";
  }
  io.print(...describeAddress(io, a));
  for (const w of a.warnings) io.print(style.warning(`Warning: ${inertLine(w.message)}`));
  let yes: boolean;
  try {
    // Without a browser to open (the host's --no-browser) the question is whether the person goes there themselves.
    const message = openUrl ? "Open this link in your browser?" : "Will you open this link yourself? (no browser is opened for you)";
    yes = await io.ask(confirm, { message, default: false }, context.signal);
  } catch (error) {
    if (!(error instanceof Cancelled)) throw error;
    io.print(
      error.by === "server" ? `Cancelled: ${server} withdrew the request; the link was not opened.` : "Cancelled: the link was not opened.",
    );
    return "cancel";
  }
  if (!yes) {
    io.print("Declined: the link was not opened.");
    return "decline";
  }
  if (!openUrl) {
    io.print("Open this address yourself:", `  ${url}`);
    return "accept";
  }
  try {
    await openUrl(a.url);
    io.print(style.ok(`Opened in your browser: ${url}`));
  } catch (error) {
    // The person consented: nothing opened, so they open it themselves; the wait that follows says how to go on.
    // The reason follows a colon: it may hold parentheses of its own ("could not be started (ENOENT)").
    const why = inertLine(error instanceof Error ? error.message : error);
    io.print(style.warning(`No browser was opened: ${why}. Open this address yourself:`), `  ${url}`);
  }
  return "accept";
}

/**
 * The full address, the host that opens (ASCII/punycode) with its registrable domain highlighted, and, for
 * an internationalized name, how it reads next to what opens.
 */
function describeAddress(io: TerminalIO, a: UrlAnalysis): string[] {
  const { style } = io;
  const host = inertLine(a.host);
  const port = a.port ? `:${inertLine(a.port)}` : "";
  const parts = a.hostParts;
  const lines = [`  Address: ${inertLine(a.url)}`];
  lines.push(`  Host:    ${parts ? inertLine(parts.before) + style.domain(inertLine(parts.registrable)) : host}${port}`);
  const reads = a.unicodeHost && a.unicodeHost !== a.host ? inertLine(a.unicodeHost) : "";
  if (reads) lines.push(`  Reads as: ${reads}  (an internationalized name: what opens is ${host})`);
  if (a.registrableDomain) {
    const unicode = a.registrableDomain.includes("xn--") ? inertLine(domainToUnicode(a.registrableDomain)) : "";
    lines.push(
      `  Domain:  ${style.domain(inertLine(a.registrableDomain))}${unicode ? ` (reads as ${unicode})` : ""}  (who the site belongs to)`,
    );
  }
  return lines;
}

/**
 * A spinner until the out-of-band flow completes; r retries now, c, Esc or Ctrl-C cancel, and a
 * withdrawn request cancels. The keyboard is read in raw mode only while waiting, then restored.
 */
export function waitForUrl(
  io: TerminalIO,
  wait: UrlWait,
  context: UIContext,
  openUrl: ((url: string) => Promise<void>) | false = false,
): Promise<UrlWaitOutcome> {
  const host = inertLine(wait.host);
  const server = serverName(context);
  if (context.signal.aborted) return Promise.resolve("cancel");
  if (wait.message) io.print(io.style.dim(`${server}: ${inertLine(wait.message)}`));
  return new Promise((resolve) => {
    const input = io.input as NodeJS.ReadableStream & { isTTY?: boolean; isRaw?: boolean; setRawMode?: (raw: boolean) => unknown };
    const wasRaw = input.isRaw === true;
    let ended = false;
    const end = (outcome: UrlWaitOutcome, how: string) => {
      if (ended) return;
      ended = true;
      input.off("keypress", onKeypress);
      context.signal.removeEventListener("abort", onAbort);
      if (input.isTTY && input.setRawMode) input.setRawMode(wasRaw);
      input.pause();
      if (outcome === "completed") spinner.succeed(how);
      else if (outcome === "retry") spinner.info(how);
      else spinner.fail(how);
      resolve(outcome);
    };
    const onKeypress = (_text: unknown, key: { name?: string; ctrl?: boolean; meta?: boolean } | undefined) => {
      if (!key) return;
      // A lone Esc arrives (after readline's escape timeout) with `meta` set; Alt+letters are ignored.
      if (key.name === "escape") end("cancel", `Cancelled: stopped waiting for ${host}.`);
      else if (key.meta) return;
      else if (key.name === "r" && !key.ctrl) end("retry", `Retrying now (${host}).`);
      else if (key.name === "n" && !key.ctrl && wait.renew) void newLink(wait.renew);
      else if (key.name === "c") end("cancel", `Cancelled: stopped waiting for ${host}.`);
    };
    const onAbort = () => end("cancel", `Cancelled: ${server} withdrew the request.`);
    let renewing = false;
    const newLink = async (renew: () => Promise<string>) => {
      if (renewing) return;
      renewing = true;
      spinner.text = `Asking ${host} for a new link…`;
      const lines = await newLinkLines(io, host, renew, openUrl);
      renewing = false;
      if (ended) return;
      spinner.stop();
      io.print(...lines);
      spinner.start(waiting);
    };

    // Keys are read before the spinner shows: a key pressed once it is visible must not reach a cooked terminal.
    emitKeypressEvents(input);
    input.on("keypress", onKeypress);
    if (input.isTTY && input.setRawMode) input.setRawMode(true);
    input.resume();
    // Servers need not report completion (and cannot on 2026-07-28), so the person's r is the usual way on.
    const more = wait.renew ? " n asks for a new link (one opened in another browser works only there)." : "";
    io.print(`When you have finished in the browser, press r to continue. c or Esc cancels.${more}`);
    const waiting = `Waiting for ${host}… (r = done, continue${wait.renew ? ", n = new link" : ""})`;
    const spinner = ora({
      text: waiting,
      stream: io.output as NodeJS.WriteStream,
      discardStdin: false,
    }).start();
    context.signal.addEventListener("abort", onAbort);
    wait.completed.then(
      () => end("completed", `Finished at ${host}.`),
      () => end("cancel", `Cancelled: the wait for ${host} ended.`),
    );
  });
}
