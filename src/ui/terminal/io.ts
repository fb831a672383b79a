// The terminal session shared by every screen: streams, styling, and `ask`, which runs one
// @inquirer prompt so that Esc, Ctrl-C and a withdrawn request all end it the same way.
import { Writable } from "node:stream";
import { createStyle, type Style } from "./style.js";
import { ElicitError } from "../../schema/errors.js";

/** Thrown by `ask` when the person pressed Esc or Ctrl-C, or the request was withdrawn. */
export class Cancelled extends ElicitError {
  constructor(readonly by: "person" | "server") {
    super("prompt-cancelled", by === "server" ? "The request was withdrawn." : "Cancelled.");
  }
}

/** What @inquirer prompts take as their second argument. */
interface PromptContext {
  input: NodeJS.ReadableStream;
  output: NodeJS.WritableStream;
  signal: AbortSignal;
}

export type Prompt<C, T> = (config: C, context: PromptContext) => Promise<T>;

// The rejections @inquirer prompts end with when interrupted; matched by name, as its docs advise.
const INTERRUPTED = new Set(["ExitPromptError", "AbortPromptError", "CancelPromptError"]);

export class TerminalIO {
  readonly style: Style;
  /** Lines that arrived while a prompt was on screen: printing them then would garble its redraws. */
  private held: string[] = [];
  private prompting = false;

  constructor(
    readonly input: NodeJS.ReadableStream,
    readonly output: NodeJS.WritableStream,
  ) {
    this.style = createStyle(output);
  }

  /** Writes lines (already inert) to the terminal. */
  print(...lines: string[]): void {
    this.output.write(lines.join("\n") + "\n");
  }

  /** Prints a line now, or as soon as the prompt on screen is answered. */
  printSoon(line: string): void {
    if (this.prompting) this.held.push(line);
    else this.print(line);
  }

  /**
   * Runs one prompt. Esc aborts it (the prompt library has no Esc binding of its own), Ctrl-C ends it
   * through the library's own SIGINT handling, and `signal` (the server withdrew the request) aborts it.
   * All three throw `Cancelled`; the prompt's readline has been closed by then, so raw mode is off.
   */
  async ask<C, T>(prompt: Prompt<C, T>, config: C, signal: AbortSignal): Promise<T> {
    if (signal.aborted) throw new Cancelled("server");
    const escape = new AbortController();
    const onKeypress = (_text: unknown, key: { name?: string } | undefined) => {
      if (key?.name === "escape") escape.abort();
    };
    this.input.on("keypress", onKeypress);
    this.prompting = true;
    try {
      return await prompt(config, { input: this.input, output: this.promptOutput(), signal: AbortSignal.any([signal, escape.signal]) });
    } catch (error) {
      if (error instanceof Error && INTERRUPTED.has(error.name)) throw new Cancelled(signal.aborted ? "server" : "person");
      throw error;
    } finally {
      this.input.off("keypress", onKeypress);
      this.prompting = false;
      if (this.held.length) this.print(...this.held.splice(0));
    }
  }

  /**
   * A prompt pipes into its output and ends that pipe when done, which would end a caller's own
   * stream (process.stdout and stderr are exempt). Each prompt gets a fresh pass-through instead.
   */
  private promptOutput(): NodeJS.WritableStream {
    const target = this.output as NodeJS.WritableStream & { _isStdio?: boolean; columns?: number; rows?: number; isTTY?: boolean };
    if (target._isStdio) return target;
    const forward = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        target.write(chunk, (error?: Error | null) => callback(error ?? null));
      },
    });
    for (const key of ["columns", "rows", "isTTY"] as const) {
      Object.defineProperty(forward, key, { get: () => target[key], enumerable: true });
    }
    return forward;
  }
}

/** Runs interactive flows one at a time: the terminal can only show one question. */
export class Queue {
  private tail: Promise<unknown> = Promise.resolve();
  private active = 0;

  /** `onBusy(true)` when a flow is queued on an idle terminal, `onBusy(false)` when the last one ends. */
  constructor(private readonly onBusy?: (busy: boolean) => void) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active++ === 0) this.onBusy?.(true);
    const result = this.tail.then(task);
    this.tail = result.catch(() => undefined);
    const settle = () => {
      if (--this.active === 0) this.onBusy?.(false);
    };
    result.then(settle, settle);
    return result;
  }
}
