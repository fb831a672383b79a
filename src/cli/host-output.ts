// What reaches stderr while the host runs: every line made inert, whatever wrote it (our own notices, a
// stdio server's stderr labelled `[server]`, and what the SDK or another library prints through
// `console`: the SDK's warnings quote server text, e.g. an invalid x-mcp-header).
import { StringDecoder } from "node:string_decoder";
import { format } from "node:util";
import type { Ora } from "ora";
import { sanitizeText } from "../common/sanitize.js";

/** Longest line of a server's stderr or of console output we print; longer ones are cut into several. */
const MAX_LINE = 2000;

let spinner: Ora | undefined;

/** Starts the connecting spinner; printLine writes around it until hideSpinner. */
export function showSpinner(next: Ora): void {
  spinner = next.start();
}

export function hideSpinner(): void {
  spinner?.stop();
  spinner = undefined;
}

/** Writes one line to stderr, around the connecting spinner when it is on screen. */
export function printLine(line: string): void {
  if (spinner?.isSpinning) {
    spinner.clear();
    process.stderr.write(line + "\n");
    spinner.render();
  } else process.stderr.write(line + "\n");
}

/**
 * A line filter for text from outside (a server's stderr, console output): splits it into lines
 * (LF, CRLF or a lone CR, which would otherwise move the cursor back over what was printed), makes
 * each inert with sanitizeText, drops the ones left empty, and hands them on with `prefix`. Bytes are
 * decoded as UTF-8 across chunk boundaries; a line longer than MAX_LINE is passed on in pieces.
 */
export function inertLines(onLine: (line: string) => void, prefix = ""): { write(chunk: Buffer | string): void; end(): void } {
  const decoder = new StringDecoder("utf8");
  let pending = "";
  const emit = (raw: string) => {
    const text = sanitizeText(raw, { maxLength: MAX_LINE, multiline: false });
    if (text) onLine(prefix + text);
  };
  const drain = () => {
    for (let at = pending.search(/[\r\n]/); at >= 0; at = pending.search(/[\r\n]/)) {
      emit(pending.slice(0, at));
      pending = pending.slice(at + (pending[at] === "\r" && pending[at + 1] === "\n" ? 2 : 1));
    }
    // A CR at the very end may be the first half of a CRLF: it waits for the next chunk.
    while (pending.length > MAX_LINE) {
      const cut = /[\uD800-\uDBFF]/.test(pending[MAX_LINE - 1]!) ? MAX_LINE - 1 : MAX_LINE; // not inside a surrogate pair
      emit(pending.slice(0, cut));
      pending = pending.slice(cut);
    }
  };
  return {
    write(chunk) {
      pending += typeof chunk === "string" ? chunk : decoder.write(chunk);
      drain();
    },
    end() {
      pending += decoder.end();
      drain();
      if (pending) emit(pending);
      pending = "";
    },
  };
}

/** The SDK's warning when it leaves a tool out of tools/list (SDK 2.4 wording, pinned by a test). */
const SDK_EXCLUDED_TOOL = /^\[mcp-sdk\] excluding tool '(.*)' from tools\/list: (.*)$/s;

/**
 * Routes console.log/info/warn/error (the SDK's warnings, and any library's) through `onText` while
 * the host runs, so that nothing reaches the terminal raw and nothing reaches stdout, where `elicit
 * call` prints its JSON. console.debug and console.trace are dropped unless ELICIT_DEBUG is set.
 * Returns the function that puts console back.
 */
export function captureConsole(onText: (text: string) => void): () => void {
  const saved = {
    log: console.log,
    info: console.info,
    warn: console.warn,
    error: console.error,
    debug: console.debug,
    trace: console.trace,
  };
  const route = (...args: unknown[]) => onText(format(...args));
  console.log = console.info = console.warn = console.error = route;
  console.debug = console.trace = (...args: unknown[]) => {
    if (process.env.ELICIT_DEBUG) route(...args);
  };
  return () => Object.assign(console, saved);
}

/** Prints console text as inert lines on stderr; remembers the tools the SDK says it excluded. */
export function consoleSink(excluded: Map<string, string>): (text: string) => void {
  return (text) => {
    const m = SDK_EXCLUDED_TOOL.exec(text);
    if (m) excluded.set(m[1]!, m[2]!);
    const lines = inertLines(printLine);
    lines.write(text);
    lines.end();
  };
}
