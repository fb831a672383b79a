// `elicit gateway --print-config HOST -- <server command>`: the snippet that makes a host launch the
// gateway in front of the server, in the host's own configuration format (host-configs.ts), on stdout;
// where to put it, on stderr. Secrets are never written into it: a host's configuration file is not a secret store.
// The snippet starts this same `elicit` (launcher.ts): by its absolute path, or with npx when it came from
// the npm registry or --npx asks for that form.
import { basename } from "node:path";
import { PRINT_CONFIG_HOSTS, type PrintConfigHost } from "../constants.js";
import { HostError, reportFailure } from "../exit.js";
import { targetOf } from "../call.js";
import { HOST_CONFIGS } from "./host-configs.js";
import { NPX_LAUNCHER, runningLauncher, type Launcher } from "./launcher.js";

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
  /** Launch with npx from the npm registry, whatever `elicit` is running. */
  npx?: boolean;
}

/** What the snippet starts, said on stderr after where it goes. */
function howItStarts(launcher: Launcher): string {
  return launcher.form === "npx"
    ? "It starts elicit with npx, which fetches mcp-elicit-cli from the npm registry the first time."
    : `It starts this computer's elicit (${launcher.args[0]}), not one from the npm registry: it works while that file stays where it is. --npx prints the form that fetches mcp-elicit-cli from the npm registry instead.`;
}

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

/**
 * The snippet for `host`, as text, started by `launcher`. Started by this computer's elicit, a server
 * command that is `elicit ...` is that elicit too: the host's PATH has no `elicit` (npx puts its own on
 * the PATH of what it starts; an absolute command does not).
 */
export function configFor(
  host: PrintConfigHost,
  command: string[],
  options: PrintConfigOptions,
  launcher: Launcher = NPX_LAUNCHER,
): string {
  const name = serverName(command, options.url, options.name);
  const server = launcher.form === "local" && command[0] === "elicit" ? [launcher.command, ...launcher.args, ...command.slice(1)] : command;
  const args = [...launcher.args, ...gatewayArgs(server, options)];
  return HOST_CONFIGS[host].snippet(name, launcher.command, args);
}

export function printConfig(host: string, command: string[], options: PrintConfigOptions): number {
  try {
    if (!(PRINT_CONFIG_HOSTS as readonly string[]).includes(host))
      throw new HostError(`--print-config takes ${PRINT_CONFIG_HOSTS.join(", ")}; got ${JSON.stringify(host.slice(0, 40))}.`);
    const launcher = options.npx ? NPX_LAUNCHER : runningLauncher();
    const snippet = configFor(host as PrintConfigHost, command, options, launcher);
    process.stderr.write(`${HOST_CONFIGS[host as PrintConfigHost].where} ${howItStarts(launcher)}\n`);
    process.stdout.write(snippet + "\n");
    return 0;
  } catch (error) {
    return reportFailure(error);
  }
}
