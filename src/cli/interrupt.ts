// Ctrl-C (SIGINT), SIGTERM or a closed terminal (SIGHUP) while a command runs and no question is open
// (an open question reads Ctrl-C as a key and cancels itself): the spinner goes, one sentence says what
// was stopped, the command's cleanups run (the demo's temporary folder, the server it started, the page's
// server), then the process exits 128 + the signal's number. Node's default is to exit at once, silently,
// leaving all of that behind.

const SIGNALS = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;
type Interrupt = keyof typeof SIGNALS;

let stoppingNow = false;

/** True once a signal is being handled: what fails because of the stop (a call cut short) is not reported. */
export const stopping = (): boolean => stoppingNow;

/** How long the cleanups may take before the process exits anyway: a person pressed Ctrl-C to leave. */
export const CLEANUP_DEADLINE_MS = 3000;

export interface Interrupted {
  /** Clears what is drawn on the terminal (spinners), synchronously, before the sentence. */
  clearScreen?: () => void;
  /** The sentence, e.g. "elicit demo: stopped (Ctrl-C) at step 4 of 7 …". `how` is "Ctrl-C", "SIGTERM"… */
  say: (how: string) => string;
  /** Closes and removes what the command made. */
  cleanup: () => void | Promise<void>;
}

/** Handles the signals until the returned function is called (when the command ends by itself). */
export function whenInterrupted(interrupted: Interrupted): () => void {
  const handlers = new Map<Interrupt, () => void>();
  const remove = () => {
    for (const [signal, handler] of handlers) process.off(signal, handler);
    handlers.clear();
  };
  for (const signal of Object.keys(SIGNALS) as Interrupt[]) {
    const handler = () => {
      remove();
      stoppingNow = true;
      const code = 128 + SIGNALS[signal];
      // A second Ctrl-C during the cleanup ends at once, as a person pressing it twice expects.
      process.once("SIGINT", () => process.exit(code));
      interrupted.clearScreen?.();
      process.stderr.write(`\n${interrupted.say(signal === "SIGINT" ? "Ctrl-C" : signal)}\n`);
      const deadline = setTimeout(() => process.exit(code), CLEANUP_DEADLINE_MS);
      Promise.resolve()
        .then(interrupted.cleanup)
        .catch(() => {})
        .finally(() => {
          clearTimeout(deadline);
          process.exit(code);
        });
    };
    handlers.set(signal, handler);
    process.on(signal, handler);
  }
  return remove;
}
