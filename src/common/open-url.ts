// The one way a URL the person consented to is opened in their browser: the sign-in, URL-mode links and
// the web UI's page all go through it. BROWSER first (xdg-open's convention), else the system's opener
// (the `open` package, an optional peer). It says whether something opened: an opener that cannot start,
// or that exits with a failure while we watch, is "not opened", and the caller tells the person to open
// the address themselves instead of claiming a browser showed it.
import { spawn, type ChildProcess } from "node:child_process";
import { MissingPeerError, missingPeers } from "./optional-peers.js";
import { ElicitError } from "../schema/errors.js";

/** Thrown when no browser was opened; the message says why (never the address, which may carry a secret). */
export class BrowserNotOpenedError extends ElicitError {
  constructor(message: string) {
    super("browser-not-opened", message);
  }
}

export interface BrowserOpenerOptions {
  /** Never open a browser (the CLI's --no-browser): every call throws, saying so. */
  noBrowser?: boolean;
  /** Where BROWSER, DISPLAY and WAYLAND_DISPLAY are read (default process.env). */
  env?: NodeJS.ProcessEnv;
  /**
   * How long an opener that is still running counts as not failed yet. Launchers (xdg-open, open,
   * a browser already running) exit at once; one still running after this is a browser in the
   * foreground, which is an opened browser.
   */
  settleMs?: number;
}

const SETTLE_MS = 1500;

/**
 * An opener for URLs the person consented to: resolves once a browser was started, rejects with
 * BrowserNotOpenedError otherwise. BROWSER is a command, or a colon-separated list tried in turn, with
 * `%s` standing for the URL (else the URL is appended). Without BROWSER on Linux with neither DISPLAY nor
 * WAYLAND_DISPLAY there is nothing to show a browser on, so nothing is started.
 */
export function browserOpener(options: BrowserOpenerOptions = {}): (url: string) => Promise<void> {
  const env = options.env ?? process.env;
  const settleMs = options.settleMs ?? SETTLE_MS;
  return async (url) => {
    if (options.noBrowser) throw new BrowserNotOpenedError("not opening a browser (--no-browser)");
    const commands = (env.BROWSER ?? "")
      .split(":")
      .map((c) => c.trim())
      .filter(Boolean);
    if (commands.length > 0) {
      const failures: string[] = [];
      for (const command of commands) {
        const failure = await settled(() => runCommand(command, url), settleMs);
        if (failure === undefined) return;
        failures.push(`${JSON.stringify(command.split(/\s+/)[0])} ${failure}`);
      }
      throw new BrowserNotOpenedError(`could not start the browser BROWSER names: ${failures.join("; ")}`);
    }
    if (missingPeers(["open"]).length > 0) throw new MissingPeerError("Opening the system browser", ["open"]);
    // Linux without a graphical session: xdg-open would find no browser, or start a text one in our terminal.
    if (process.platform === "linux" && !env.DISPLAY && !env.WAYLAND_DISPLAY)
      throw new BrowserNotOpenedError("no display to open a browser on");
    const { default: open } = await import("open");
    const failure = await settled(() => open(url), settleMs);
    if (failure !== undefined) throw new BrowserNotOpenedError(`the system's opener ${failure}`);
  };
}

/** Starts a BROWSER command without a shell: the URL is one argument, whatever it holds. */
function runCommand(command: string, url: string): ChildProcess {
  const words = command.split(/\s+/);
  const args = words.slice(1).some((w) => w.includes("%s")) ? words.slice(1).map((w) => w.replaceAll("%s", url)) : [...words.slice(1), url];
  return spawn(words[0]!, args, { stdio: "ignore", detached: true });
}

/**
 * Starts an opener and watches it for `settleMs`: undefined when it exited 0 or is still running then,
 * else what went wrong ("could not be started (ENOENT)", "exited with code 3").
 */
async function settled(start: () => ChildProcess | Promise<ChildProcess>, settleMs: number): Promise<string | undefined> {
  let child: ChildProcess;
  try {
    const started = start();
    // A spawn's ENOENT comes as an event on the next tick: listened for before anything is awaited.
    child = started instanceof Promise ? await started : started;
  } catch (error) {
    return `could not be started (${codeOf(error)})`;
  }
  return new Promise((resolve) => {
    const done = (why: string | undefined) => {
      clearTimeout(timer);
      child.off("error", onError);
      child.off("exit", onExit);
      child.unref();
      resolve(why);
    };
    const onError = (error: unknown) => done(`could not be started (${codeOf(error)})`);
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      done(code === 0 ? undefined : signal ? `was ended by ${signal}` : `exited with code ${code}`);
    const timer = setTimeout(() => done(undefined), settleMs);
    child.once("error", onError);
    child.once("exit", onExit);
    // Already over before we listened (a launcher that failed at once).
    if (child.exitCode !== null || child.signalCode !== null) onExit(child.exitCode, child.signalCode);
  });
}

const codeOf = (error: unknown) => {
  const e = error as { code?: unknown; message?: unknown };
  return typeof e?.code === "string" ? e.code : String(e?.message ?? error);
};
