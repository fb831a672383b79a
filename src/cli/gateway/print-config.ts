// `elicit gateway --print-config HOST -- <server command>`: the snippet that makes a host launch the
// gateway in front of the server, in the host's own configuration format, on stdout; where to put it,
// on stderr. Secrets are never written into it: a host's configuration file is not a secret store.
import { basename } from "node:path";
import { PRINT_CONFIG_HOSTS, type PrintConfigHost } from "../constants.js";
import { HostError, reportFailure } from "../exit.js";
import { targetOf } from "../call.js";

export interface PrintConfigOptions {
  url?: string;
  ui?: string;
  policy?: string;
  log?: string;
  root?: string[];
  protocol?: string;
  modes?: string;
  name?: string;
  token?: string;
  clientSecret?: string;
}

/** How the host starts the gateway: npx fetches the CLI package the first time. */
export const LAUNCHER = { command: "npx", args: ["-y", "--package=mcp-elicit-cli", "elicit"] };

const WHERE: Record<PrintConfigHost, string> = {
  "claude-desktop":
    'Add this under "mcpServers" in claude_desktop_config.json (Settings › Developer › Edit Config), then restart Claude Desktop.',
  "claude-code": "Run this command in your project (add --scope user to make it yours everywhere).",
  vscode: 'Add this under "servers" in .vscode/mcp.json (or run "MCP: Add Server" and paste it).',
  cursor: 'Add this under "mcpServers" in ~/.cursor/mcp.json (or .cursor/mcp.json in a project).',
};

const RUNNERS = new Set([
  "npx",
  "node",
  "uvx",
  "uv",
  "run",
  "python",
  "python3",
  "deno",
  "bunx",
  "bun",
  "pnpm",
  "dlx",
  "elicit",
  "serve",
  "docker",
]);

/** A name for the server in the host's list: from --name, else the URL's host or the command's package. */
export function serverName(command: string[], url: string | undefined, given?: string): string {
  let name = given;
  if (name === undefined && url !== undefined) name = URL.canParse(url) ? new URL(url).hostname : undefined;
  if (name === undefined) {
    const word = command.find((w) => !w.startsWith("-") && !RUNNERS.has(basename(w))) ?? command[0] ?? "server";
    name = basename(word.replace(/@[^/@]*$/, ""));
  }
  const clean = name.replace(/[^A-Za-z0-9_-]+/g, "-").replace(/^-+|-+$/g, "");
  return clean || "server";
}

/** A shell word, quoted when it needs to be. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);

export function gatewayArgs(command: string[], options: PrintConfigOptions): string[] {
  if (options.token !== undefined || options.clientSecret !== undefined)
    throw new HostError(
      "--print-config writes no secrets into a host's configuration: leave out --token and --client-secret, and set ELICIT_TOKEN or ELICIT_CLIENT_SECRET in the host's environment settings instead.",
    );
  const target = targetOf(options, command);
  const args = ["gateway"];
  if (options.ui !== undefined && options.ui !== "host") args.push("--ui", options.ui);
  if (options.policy !== undefined) args.push("--policy", options.policy);
  if (options.log !== undefined) args.push("--log", options.log);
  if (options.protocol !== undefined && options.protocol !== "auto") args.push("--protocol", options.protocol);
  if (options.modes !== undefined && options.modes !== "form,url") args.push("--modes", options.modes);
  for (const root of options.root ?? []) args.push("--root", root);
  if ("url" in target) args.push("--url", target.url);
  else args.push("--", target.command, ...target.args);
  return args;
}

/** The snippet for `host`, as text. */
export function configFor(host: PrintConfigHost, command: string[], options: PrintConfigOptions): string {
  const name = serverName(command, options.url, options.name);
  const args = [...LAUNCHER.args, ...gatewayArgs(command, options)];
  switch (host) {
    case "claude-code":
      return ["claude", "mcp", "add", name, "--", LAUNCHER.command, ...args].map(shellWord).join(" ");
    case "vscode":
      return JSON.stringify({ servers: { [name]: { type: "stdio", command: LAUNCHER.command, args } } }, null, 2);
    case "claude-desktop":
    case "cursor":
      return JSON.stringify({ mcpServers: { [name]: { command: LAUNCHER.command, args } } }, null, 2);
  }
}

export function printConfig(host: string, command: string[], options: PrintConfigOptions): number {
  try {
    if (!(PRINT_CONFIG_HOSTS as readonly string[]).includes(host))
      throw new HostError(`--print-config takes ${PRINT_CONFIG_HOSTS.join(", ")}; got ${JSON.stringify(host.slice(0, 40))}.`);
    const snippet = configFor(host as PrintConfigHost, command, options);
    process.stderr.write(`${WHERE[host as PrintConfigHost]}\n`);
    process.stdout.write(snippet + "\n");
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}
