// `elicit call TOOL [--args JSON] [--answers FILE] …`: one tool call, non-interactive when given an
// answers file. The tool result goes to stdout as JSON; the exit code says how it ended.
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { ElicitationUI, SamplingUI } from "../client/ui.js";
import { readAnswersFile } from "../ui/answers-file.js";
import { scriptedUI } from "../ui/scripted.js";
import { terminalUI } from "../ui/terminal/index.js";
import { EXIT, HostError } from "./exit.js";
import { withHost, type ServerTarget } from "./host.js";

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
  let args: Record<string, unknown> = {};
  return withHost(
    async () => {
      const target = targetOf(options, command);
      args = parseArgs(options.args);
      return { target, ui: await uiFor(options.answers), modes: options.modes, protocol: options.protocol, roots: options.root };
    },
    async (host) => {
      const result = (await host.elicitation.callTool({ name: tool, arguments: args })) as CallToolResult;
      process.stdout.write(JSON.stringify(result, null, 2) + "\n");
      return result.isError ? EXIT.toolError : EXIT.ok;
    },
  );
}
