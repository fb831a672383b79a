// What the terminal shows between questions while a tool call runs: after WAIT_SHOWN_AFTER_MS with
// nothing on screen, a spinner says what is awaited (the server and tool, or the page the person is to
// finish), so a long wait never looks like a hang. Hidden while a question is open; ora keeps
// other writes to the terminal above it.
import ora, { type Ora } from "ora";
import type { TerminalIO } from "./io.js";
import { inertLine } from "./style.js";

/** A wait shorter than this shows nothing: most calls answer well before it. */
export const WAIT_SHOWN_AFTER_MS = 2000;

export class WaitLine {
  private readonly waits: string[] = [];
  /** The page the person consented to during the current wait (the host, inert). */
  private page: string | undefined;
  private busy = false;
  private timer: NodeJS.Timeout | undefined;
  private spinner: Ora | undefined;

  constructor(private readonly io: TerminalIO) {}

  /** Shows what is awaited while `work` runs (`what`: e.g. "travel 1.0.0 (pay_for_booking)"). */
  async track<T>(what: string, work: Promise<T>): Promise<T> {
    const entry = inertLine(what);
    this.waits.push(entry);
    this.update();
    try {
      return await work;
    } finally {
      this.waits.splice(this.waits.lastIndexOf(entry), 1);
      if (this.waits.length === 0) this.page = undefined;
      this.update();
    }
  }

  /** A page was accepted (opened, or to be opened by hand): the wait that follows is for the person to finish it. */
  pageAccepted(host: string): void {
    if (this.waits.length > 0) this.page = inertLine(host);
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
    return this.page
      ? `Waiting for you to finish the page at ${this.page}; then ${what} goes on (Ctrl-C stops)`
      : `Waiting for ${what}… (Ctrl-C stops)`;
  }

  private update(): void {
    if (this.busy || this.waits.length === 0) return this.hide();
    if (this.spinner) this.spinner.text = this.text();
    else this.timer ??= setTimeout(() => this.show(), WAIT_SHOWN_AFTER_MS);
  }

  private show(): void {
    this.timer = undefined;
    if (this.busy || this.waits.length === 0) return;
    this.spinner = ora({ text: this.text(), stream: this.io.output as NodeJS.WriteStream, discardStdin: false }).start();
  }

  private hide(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.spinner?.stop();
    this.spinner = undefined;
  }
}
