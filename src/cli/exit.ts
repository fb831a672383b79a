// How the commands that talk to a server end: exit codes, and one place that prints why they failed.
import { ProtocolError } from "@modelcontextprotocol/client";
import { ProviderError } from "../client/providers/provider.js";
import { sanitizeText } from "../common/sanitize.js";
import { UrlElicitationEndedError } from "../client/url-flow.js";
import { ServerGoneError } from "../client/resend-error.js";
import { AnswersFileError } from "../ui/answers-file.js";
import { stopping } from "./interrupt.js";
import { ElicitError } from "../schema/errors.js";

/** A usage or connection problem: the command prints the message and exits 2. */
export class HostError extends ElicitError {
  constructor(message: string) {
    super("command-failed", message);
  }
}

/** Exit codes of call, connect and demo. */
export const EXIT = { ok: 0, toolError: 1, usage: 2 } as const;

/**
 * JSON for stdout, with every character a terminal could act on or that reads differently from what
 * it is written as a \u escape: JSON.stringify escapes C0 controls but leaves DEL, C1 controls
 * (8-bit CSI/OSC), bidi overrides and other invisible format characters raw. The value is unchanged.
 */
export function inertJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(/[\u007f-\u009f\u2028\u2029]|\p{Cf}/gu, (c) =>
    Array.from({ length: c.length }, (_, i) => `\\u${c.charCodeAt(i).toString(16).padStart(4, "0")}`).join(""),
  );
}

/** Error texts can carry server words (JSON-RPC messages, HTTP bodies): made inert before printing. */
const say = (text: string) => process.stderr.write(`elicit: ${sanitizeText(text, { maxLength: 2000 })}\n`);

/** Prints why a command failed and returns its exit code. */
export function reportFailure(error: unknown): number {
  // Stopped by Ctrl-C: the sentence is said; the call it cut short is no failure to report.
  if (stopping()) return EXIT.usage;
  // A model configured wrong (half an environment) is a usage error, found before any server is contacted.
  if (error instanceof HostError || error instanceof AnswersFileError || (error instanceof ProviderError && error.kind === "config")) {
    say(error.message);
    return EXIT.usage;
  }
  if (error instanceof UrlElicitationEndedError) {
    say(error.message);
    return EXIT.toolError;
  }
  // The server went away under a round and did not come back: not a refusal by the server.
  if (
    error instanceof ServerGoneError ||
    (error instanceof ProtocolError && (error.data as { reason?: unknown })?.reason === "server-gone")
  ) {
    say(error.message);
    return EXIT.usage;
  }
  if (error instanceof ProtocolError) {
    // The server answered the call with a JSON-RPC error: machine-readable on stdout, readable on stderr.
    process.stdout.write(
      inertJson({ error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } }) + "\n",
    );
    say(`the server refused the call: ${error.message} (${error.code})`);
    return EXIT.toolError;
  }
  say((error as Error).message ?? String(error));
  return EXIT.usage;
}
