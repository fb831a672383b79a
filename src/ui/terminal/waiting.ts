// What the terminal shows between questions while a tool call runs: after WAIT_SHOWN_AFTER_MS with
// nothing on screen, a spinner says what is awaited (the server and tool, or the page the person is to
// finish), so a long wait never looks like a hang. Hidden while a question is open; ora keeps
// other writes to the terminal above it. While it waits for a page whose server gives new links (an
// mcp-elicit kit's), n asks for one: a link opened in another browser belongs there, and Ctrl-C was
// the only way out. The keyboard is read in raw mode only then, and Ctrl-C is passed on as SIGINT.
import { emitKeypressEvents } from "node:readline";
import ora, { type Ora } from "ora";
import type { TerminalIO } from "./io.js";
import { newLinkLines } from "./new-link.js";
import { inertLine } from "./style.js";

type Input = NodeJS.ReadableStream & { isTTY?: boolean; isRaw?: boolean; setRawMode?: (raw: boolean) => unknown };
type Key = { name?: string; ctrl?: boolean; meta?: boolean } | undefined;

/** A wait shorter than this shows nothing: most calls answer well before it. */
export const WAIT_SHOWN_AFTER_MS = 2000;

export class WaitLine {
  private readonly waits: string[] = [];
  /** The page the person consented to during the current wait (the host, inert). */
  private page: string | undefined;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  private spinner: Ora | undefined;
  /** Asks the page's server for a new link (see client/url-renew.ts), when it gives them. */
  private renew: (() => Promise<string>) | undefined;
  private renewing = false;
  /** The raw mode to restore when the keys are no longer read; undefined while they are not. */
  private wasRaw: boolean | undefined;
  private readonly onKey = (_text: unknown, key: Key) => this.key(key);

  constructor(
    private readonly io: TerminalIO,
    private readonly openUrl: ((url: string) => Promise<void>) | false = false,
  ) {}

  /** Shows what is awaited while `work` runs (`what`: e.g. "travel 1.0.0 (pay_for_booking)"). */
  async track<T>(what: string, work: Promise<T>): Promise<T> {
    const entry = inertLine(what);
    this.waits.push(entry);
    this.update();
    try {
      return await work;
    } finally {
      this.waits.splice(this.waits.lastIndexOf(entry), 1);
      if (this.waits.length === 0) this.page = this.renew = undefined;
      this.update();
    }
  }

  /** A page was accepted (opened, or to be opened by hand): the wait that follows is for the person to finish it. */
  pageAccepted(host: string, renew?: () => Promise<string>): void {
    if (this.waits.length === 0) return;
    this.page = inertLine(host);
    this.renew = renew;
  }

  /** A question is on screen (true) or the terminal is free again (false). */
  setBusy(busy: boolean): void {
    this.busy = busy;
    if (busy) this.hide();
    this.update();
  }

  /** Takes the spinner off the screen for good (the command is ending). */
  stop(): void {
    this.waits.length = 0;
    this.hide();
  }

  private text(): string {
    const what = this.waits.at(-1)!;
    if (!this.page) return `Waiting for ${what}… (Ctrl-C stops)`;
    if (this.renewing) return `Asking ${this.page} for a new link…`;
    const keys = this.renew ? "press n for a new link, Ctrl-C stops" : "Ctrl-C stops";
    return `Waiting for you to finish the page at ${this.page}; then ${what} goes on (${keys})`;
  }

  private update(): void {
    if (this.busy || this.waits.length === 0) return this.hide();
    if (this.spinner) this.spinner.text = this.text();
    else this.timer ??= setTimeout(() => this.show(), WAIT_SHOWN_AFTER_MS);
  }

  private show(): void {
    this.timer = undefined;
    if (this.busy || this.waits.length === 0) return;
    // Keys are read before the spinner shows: a key pressed once it is visible must not reach a cooked terminal.
    if (this.page && this.renew) this.listen();
    this.spinner = ora({ text: this.text(), stream: this.io.output as NodeJS.WriteStream, discardStdin: false }).start();
  }

  private hide(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.unlisten();
    this.spinner?.stop();
    this.spinner = undefined;
  }

  private listen(): void {
    if (this.wasRaw !== undefined) return;
    const input = this.io.input as Input;
    this.wasRaw = input.isRaw === true;
    emitKeypressEvents(input);
    input.on("keypress", this.onKey);
    if (input.isTTY && input.setRawMode) input.setRawMode(true);
    input.resume();
  }

  private unlisten(): void {
    if (this.wasRaw === undefined) return;
    const input = this.io.input as Input;
    input.off("keypress", this.onKey);
    if (input.isTTY && input.setRawMode) input.setRawMode(this.wasRaw);
    input.pause();
    this.wasRaw = undefined;
  }

  private key(key: Key): void {
    if (!key) return;
    // Raw mode turns Ctrl-C into a key: it still stops the command, as it does in a cooked terminal.
    if (key.ctrl && key.name === "c") return void process.kill(process.pid, "SIGINT");
    if (key.name === "n" && !key.ctrl && !key.meta) void this.newLink();
  }

  /** Asks for a new link, shows it and opens it as the first one was (or says why there is none). */
  private async newLink(): Promise<void> {
    const renew = this.renew;
    const host = this.page;
    if (!renew || !host || this.renewing) return;
    this.renewing = true;
    if (this.spinner) this.spinner.text = this.text();
    const lines = await newLinkLines(this.io, host, renew, this.openUrl);
    this.renewing = false;
    // Printed with the spinner off, then the wait shows again (unless it ended meanwhile).
    const shown = this.spinner !== undefined;
    this.hide();
    this.io.print(...lines);
    if (shown) this.show();
    else this.update();
  }
}
