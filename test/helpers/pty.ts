// Drives a program in a real pseudo-terminal (node-pty) and reads what a person would see through a
// headless xterm. Every wait polls the rendered screen and has a deadline whose error shows the
// screen, so a failing test never hangs; `close()` kills the process.
//
// `startProgram` runs any command (e.g. the built `elicit` bin); `startDriver` runs the terminal UI
// driver (test/fixtures/terminal/driver.ts) on top of it, adding its results file.
import { after } from "node:test";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import * as pty from "node-pty";
import xterm from "@xterm/headless";
import { DONE_MARKER, type ResultLine, type Scenario } from "../fixtures/terminal/scenario.js";
import { onExit, removeOnExit } from "./cleanup.js";

/** Keys as a terminal sends them. */
export const KEY = {
  enter: "\r",
  up: "\x1b[A",
  down: "\x1b[B",
  space: " ",
  esc: "\x1b",
  ctrlC: "\x03",
  ctrlU: "\x15",
  backspace: "\x7f",
} as const;

const DRIVER = fileURLToPath(new URL("../fixtures/terminal/driver.ts", import.meta.url));
const COLS = 100;
const ROWS = 40;

/** What any program in the pty offers a test. */
export interface ProgramSession {
  /** The whole terminal: scrollback and screen, one line per row ("\n"; wrapped rows joined), trailing blanks trimmed. */
  screen(): string;
  /** Only the rows visible now (no scrollback), one per row, as a person sees them. */
  viewport(): string;
  /**
   * Waits until the screen contains `what` (a string or regex) and returns the screen. With `after`,
   * only the text after the last occurrence of that anchor counts: an earlier question's lines stay
   * on screen (a cancelled prompt keeps its "?" line), and must not satisfy a wait for a later one.
   */
  waitFor(what: string | RegExp, options?: { after?: string; timeoutMs?: number }): Promise<string>;
  /** Sends keys as they are (see KEY). */
  press(...keys: string[]): void;
  /** Types text. */
  type(text: string): void;
  /** Sends a signal to the process. */
  signal(name: NodeJS.Signals): void;
  /** The runs of underlined text on the screen, in order (how a highlight shows when colour is on). */
  underlined(): string[];
  /** Every byte the program wrote, escape sequences included. */
  raw(): string;
  /** Whether the cursor is shown: the last of DECTCEM hide ("ESC [?25l") and show ("ESC [?25h") was a show, or neither came. */
  cursorVisible(): boolean;
  /** Waits until `check()` holds (`what` names it in the error, which shows the screen). */
  waitUntil(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  /** Waits for the program to exit with all its output on the screen; returns its exit code. */
  exitCode(timeoutMs?: number): Promise<number>;
  /** Kills the process if it still runs (SIGKILL) and frees the terminal. */
  close(): void;
}

export interface ProgramOptions {
  /** Added to the parent's environment (see `environment`); `undefined` removes a variable. */
  env?: Record<string, string | undefined>;
  cwd?: string;
  cols?: number;
  rows?: number;
  /** What errors call the process: "The program exited" (default), "The driver exited". */
  name?: string;
}

/** Polls `what` until it holds; gives up at the deadline, or at once when `gone()` says it never will. */
const poll = async (
  what: () => boolean,
  timeoutMs: number,
  failure: (why: string) => string,
  gone: () => boolean,
  name: string,
): Promise<void> => {
  const deadline = Date.now() + timeoutMs;
  while (!what()) {
    if (Date.now() > deadline) throw new Error(failure(`Timed out after ${timeoutMs} ms`));
    if (gone()) {
      if (what()) return;
      throw new Error(failure(`The ${name} exited`));
    }
    await new Promise((r) => setTimeout(r, 15));
  }
};

/**
 * The parent's environment without what would make the program behave unlike a person's terminal:
 * `CI` turns spinners off (is-interactive), colour switches change nothing a test reads.
 */
function environment(): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (value !== undefined && !["CI", "NO_COLOR", "FORCE_COLOR", "NODE_TEST_CONTEXT", "EDITOR", "VISUAL"].includes(key)) env[key] = value;
  }
  return env;
}

/** Runs `command args…` in a pty of its own (TERM=xterm-256color, 100×40 unless told). */
export function startProgram(command: string, args: string[], options: ProgramOptions = {}): ProgramSession {
  const { cols = COLS, rows = ROWS, cwd = process.cwd(), name = "program" } = options;
  const env: Record<string, string> = { ...environment(), TERM: "xterm-256color" };
  for (const [key, value] of Object.entries(options.env ?? {})) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  const term = new xterm.Terminal({ cols, rows, scrollback: 2000, allowProposedApi: true });
  const child = pty.spawn(command, args, { name: "xterm-256color", cols, rows, cwd, env });
  // A test file cut or failed before close() still takes its program along.
  const unregister = onExit(() => {
    if (exitCode === undefined) child.kill("SIGKILL");
  });
  let raw = "";
  let exitCode: number | undefined;
  // xterm parses what it is given later: a count of writes not yet on the screen tells when it has all.
  let unparsed = 0;
  child.onData((data) => {
    raw += data;
    unparsed++;
    term.write(data, () => void unparsed--);
  });
  child.onExit(({ exitCode: code }) => {
    exitCode = code;
    unregister();
  });
  // node-pty reports the exit once the pty is drained, so nothing more can come once xterm has it all.
  const gone = () => exitCode !== undefined && unparsed === 0;

  const screen = () => {
    const buffer = term.buffer.active;
    const lines: string[] = [];
    for (let i = 0; i < buffer.length; i++) {
      const line = buffer.getLine(i);
      const text = line?.translateToString(true) ?? "";
      // A row the terminal wrapped continues the previous one: join them back into one line.
      if (line?.isWrapped && lines.length) lines[lines.length - 1] += text;
      else lines.push(text);
    }
    return lines.join("\n").trimEnd();
  };
  const show = (why: string) =>
    `${why}\n--- screen ---\n${screen()}\n--------------\n(exit code: ${exitCode ?? "running"}; stderr is on the screen too)`;

  return {
    screen,
    viewport() {
      const buffer = term.buffer.active;
      const rows: string[] = [];
      for (let y = buffer.viewportY; y < buffer.viewportY + term.rows; y++) rows.push(buffer.getLine(y)?.translateToString(true) ?? "");
      return rows.join("\n").trimEnd();
    },
    raw: () => raw,
    cursorVisible: () => raw.lastIndexOf("\x1b[?25h") >= raw.lastIndexOf("\x1b[?25l"),
    underlined() {
      const buffer = term.buffer.active;
      const runs: string[] = [];
      let run = "";
      for (let y = 0; y < buffer.length; y++) {
        const line = buffer.getLine(y);
        for (let x = 0; line && x < term.cols; x++) {
          const cell = line.getCell(x);
          if (cell?.isUnderline()) run += cell.getChars() || " ";
          else if (run) {
            runs.push(run);
            run = "";
          }
        }
      }
      if (run) runs.push(run);
      return runs;
    },
    async waitFor(what, { after, timeoutMs = 10_000 } = {}) {
      const region = () => {
        const text = screen();
        if (after === undefined) return text;
        const at = text.lastIndexOf(after);
        return at < 0 ? "" : text.slice(at);
      };
      const found = () => (typeof what === "string" ? region().includes(what) : what.test(region()));
      const anchor = after === undefined ? "" : ` after ${JSON.stringify(after)}`;
      await poll(found, timeoutMs, (why) => show(`${why} waiting for ${String(what)}${anchor}`), gone, name);
      // A prompt draws its question line before its choices: let the screen settle (nothing new for
      // 80 ms, at most 1 s) so that what the test reads next is the whole prompt, not half of it.
      for (let settled = Date.now() + 1000, seen = -1; Date.now() < settled && (raw.length !== seen || unparsed > 0);) {
        seen = raw.length;
        await new Promise((r) => setTimeout(r, 80));
      }
      return region();
    },
    async waitUntil(check, what, timeoutMs = 10_000) {
      await poll(check, timeoutMs, (why) => show(`${why} waiting for ${what}`), gone, name);
    },
    press: (...keys) => child.write(keys.join("")),
    type: (text) => child.write(text),
    signal: (name) => child.kill(name),
    async exitCode(timeoutMs = 10_000) {
      await poll(
        gone,
        timeoutMs,
        (why) => show(`${why} waiting for the ${name} to exit`),
        () => false,
        name,
      );
      return exitCode!;
    },
    close() {
      if (exitCode === undefined) child.kill("SIGKILL");
      term.dispose();
    },
  };
}

/** The terminal driver in the pty, with its results file. */
export interface PtySession extends Omit<ProgramSession, "signal" | "exitCode"> {
  /** Sends a signal to the driver (SIGUSR1: complete a wait, or send a notice; SIGUSR2: withdraw the request). */
  signal(name: "SIGUSR1" | "SIGUSR2"): void;
  /** Waits for step `index`'s answer. */
  result(index: number, timeoutMs?: number): Promise<unknown>;
  /** Waits for a line of the results file that `match` accepts, and returns it. */
  lineWhere(match: (line: ResultLine) => boolean, timeoutMs?: number): Promise<ResultLine>;
  /** Every line of the results file so far. */
  lines(): ResultLine[];
  /** Waits for the driver to finish its steps, print its last line and exit; returns its exit code and raw-mode state. */
  exit(timeoutMs?: number): Promise<{ code: number; stdinRaw: boolean | undefined }>;
}

/** Starts the terminal driver with a scenario (see test/fixtures/terminal/driver.ts). */
export function startDriver(
  steps: Scenario["steps"],
  options: Omit<Scenario, "steps" | "resultsFile"> & { env?: Record<string, string> } = {},
): PtySession {
  const dir = mkdtempSync(join(tmpdir(), "elicit-pty-"));
  const unregisterDir = removeOnExit(dir);
  const resultsFile = join(dir, "results.jsonl");
  const { env, ...rest } = options;
  const scenario: Scenario = { ...rest, resultsFile, steps };
  const program = startProgram(process.execPath, ["--import", "tsx", DRIVER], {
    env: { TERMINAL_SCENARIO: JSON.stringify(scenario), ...env },
    name: "driver",
  });

  const lines = (): ResultLine[] => {
    let text = "";
    try {
      text = readFileSync(resultsFile, "utf8");
    } catch {
      return [];
    }
    return text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as ResultLine);
  };
  return {
    ...program,
    signal: (name) => program.signal(name),
    lines,
    async lineWhere(match, timeoutMs = 10_000) {
      await program.waitUntil(() => lines().some(match), `a results line: ${String(match)}`, timeoutMs);
      return lines().find(match)!;
    },
    async result(index, timeoutMs = 10_000) {
      const line = await this.lineWhere((l) => "result" in l && l.step === index, timeoutMs);
      return (line as { result: unknown }).result;
    },
    async exit(timeoutMs = 10_000) {
      // Its last line on screen means it got through every step.
      await program.waitFor(DONE_MARKER, { timeoutMs });
      const code = await program.exitCode(timeoutMs);
      const done = lines().find((l): l is { done: true; stdinRaw: boolean | undefined } => "done" in l);
      if (!done)
        throw new Error(`The driver exited (${code}) before finishing its steps\n--- screen ---\n${program.screen()}\n--------------`);
      return { code, stdinRaw: done.stdinRaw };
    },
    close() {
      program.close();
      rmSync(dir, { recursive: true, force: true });
      unregisterDir();
    },
  };
}

/** No model for the child: every ELICIT_MODEL* and OPENAI_* variable removed from its environment. */
export const NO_MODEL_ENV: Record<string, undefined> = Object.fromEntries(
  Object.keys(process.env)
    .filter((k) => /^(ELICIT_MODEL|OPENAI_)/.test(k))
    .map((k) => [k, undefined]),
);

/** Waits that include starting the bin, a server and a tool call, which can be slow on a busy machine. */
export const SLOW_MS = 30_000;

/** Makes temporary directories named `prefix…`, all removed when the test file ends. */
export function tempDirs(prefix: string): () => string {
  const made: string[] = [];
  after(() => made.forEach((d) => rmSync(d, { recursive: true, force: true })));
  return () => {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    made.push(dir);
    removeOnExit(dir); // also when the file is cut before its after hooks
    return dir;
  };
}
