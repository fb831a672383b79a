// `elicit call TOOL [--args JSON] [--answers FILE] …`: one tool call, non-interactive when given an
// answers file. The tool result goes to stdout as JSON; the exit code says how it ended.
import { ProtocolError, type CallToolResult } from "@modelcontextprotocol/client";
import { providerFromEnv } from "../client/providers/openai.js";
import { ProviderError } from "../client/providers/provider.js";
import { sanitizeText } from "../client/sanitize.js";
import type { ElicitationUI, SamplingUI } from "../client/ui.js";
import { UrlElicitationEndedError } from "../client/url-flow.js";
import { AnswersFileError, readAnswersFile } from "../ui/answers-file.js";
import { scriptedUI } from "../ui/scripted.js";
import { terminalUI } from "../ui/terminal/index.js";
import { HostError, openHost, parseModes, parseProtocol, type ServerTarget } from "./host.js";

export interface TargetOptions {
  url?: string;
  modes: string;
  protocol: string;
  root: string[];
}

export interface CallOptions extends TargetOptions {
  args?: string;
  answers?: string;
}

/** Exit codes of call, connect and demo. */
export const EXIT = { ok: 0, toolError: 1, usage: 2 } as const;

/** The server from `--url` or the words after `--`; exactly one of them. */
export function targetOf(options: { url?: string }, command: string[]): ServerTarget {
  if (options.url !== undefined && command.length > 0) throw new HostError("give the server either --url URL or -- command args…, not both.");
  if (options.url !== undefined) return { url: options.url };
  const [cmd, ...args] = command;
  if (!cmd) throw new HostError("no server: give --url URL (Streamable HTTP) or -- command args… (stdio).");
  return { command: cmd, args };
}

export function parseArgs(json: string | undefined): Record<string, unknown> {
  if (json === undefined) return {};
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch (error) {
    throw new HostError(`--args is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw new HostError("--args must be a JSON object, e.g. --args '{\"city\":\"Barcelona\"}'.");
  return value as Record<string, unknown>;
}

/** The UI for a non-interactive call: the answers file, else the terminal when there is one. */
async function uiFor(answers: string | undefined): Promise<ElicitationUI & SamplingUI> {
  if (answers !== undefined) return scriptedUI(await readAnswersFile(answers));
  if (process.stdin.isTTY && process.stderr.isTTY) return terminalUI({ output: process.stderr });
  process.stderr.write("elicit: no --answers file and no terminal: every question from the server will be cancelled.\n");
  return scriptedUI([]);
}

export async function call(tool: string, command: string[], options: CallOptions): Promise<number> {
  let host;
  try {
    const target = targetOf(options, command);
    const args = parseArgs(options.args);
    const ui = await uiFor(options.answers);
    const provider = providerFromEnv();
    host = await openHost({ target, ui, modes: parseModes(options.modes), protocol: parseProtocol(options.protocol), roots: options.root, ...(provider ? { provider } : {}) });
    const result = (await host.elicitation.callTool({ name: tool, arguments: args })) as CallToolResult;
    process.stdout.write(JSON.stringify(result, null, 2) + "\n");
    return result.isError ? EXIT.toolError : EXIT.ok;
  } catch (error) {
    return reportFailure(error);
  } finally {
    await host?.close().catch(() => {});
  }
}

/** Error texts can carry server words (JSON-RPC messages, HTTP bodies): made inert before printing. */
const say = (text: string) => process.stderr.write(`elicit: ${sanitizeText(text, { maxLength: 2000 })}\n`);

/** Prints why a command failed and returns its exit code. */
export function reportFailure(error: unknown): number {
  // A model configured wrong (half an environment) is a usage error, found before any server is contacted.
  if (error instanceof HostError || error instanceof AnswersFileError || (error instanceof ProviderError && error.kind === "config")) {
    say(error.message);
    return EXIT.usage;
  }
  if (error instanceof UrlElicitationEndedError) {
    say(error.message);
    return EXIT.toolError;
  }
  if (error instanceof ProtocolError) {
    // The server answered the call with a JSON-RPC error: machine-readable on stdout, readable on stderr.
    process.stdout.write(JSON.stringify({ error: { code: error.code, message: error.message, ...(error.data !== undefined ? { data: error.data } : {}) } }, null, 2) + "\n");
    say(`the server refused the call: ${error.message} (${error.code})`);
    return EXIT.toolError;
  }
  say((error as Error).message ?? String(error));
  return EXIT.usage;
}
