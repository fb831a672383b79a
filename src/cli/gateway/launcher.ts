// How a host's configuration starts `elicit`: the command `--print-config` writes into a snippet. An
// `elicit` installed from the npm registry is started the way anyone can start it, through npx; any other
// (a clone, a packed tarball, a linked folder) by its absolute path on this computer, since npx would
// look for mcp-elicit-cli on the registry, where that copy does not come from.
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";

export interface Launcher {
  command: string;
  args: string[];
  /** npx: the registry form; local: this computer's node and this `elicit`'s file. */
  form: "npx" | "local";
}

/** The registry form: npx fetches the CLI package the first time. */
export const NPX_LAUNCHER: Launcher = { command: "npx", args: ["-y", "--package=mcp-elicit-cli", "elicit"], form: "npx" };

/** The folder of the package that holds `file`: the nearest folder above it with a package.json. */
function packageFolder(file: string): string | undefined {
  for (let dir = dirname(file); ; dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

/**
 * Whether the package in `folder` was installed from a registry: it sits in a node_modules folder (its
 * real path: a workspace or `npm link` is a symbolic link to somewhere else) and npm's record of that
 * folder (node_modules/.package-lock.json) says it was fetched over http(s), not from a file or a folder.
 */
export function fromRegistry(folder: string): boolean {
  const parent = dirname(folder);
  const modules = basename(parent).startsWith("@") ? dirname(parent) : parent;
  if (basename(modules) !== "node_modules") return false;
  try {
    const lock = JSON.parse(readFileSync(join(modules, ".package-lock.json"), "utf8")) as {
      packages?: Record<string, { resolved?: unknown }>;
    };
    const key = `node_modules/${folder
      .slice(modules.length + 1)
      .split("\\")
      .join("/")}`;
    const resolved = lock.packages?.[key]?.resolved;
    return typeof resolved === "string" && /^https?:\/\//.test(resolved);
  } catch {
    return false; // no record: not known to come from a registry, so the form that works here
  }
}

/** How to start the `elicit` that is running now: npx when it came from the registry, else its absolute command. */
export function runningLauncher(script = process.argv[1]): Launcher {
  if (script === undefined) return NPX_LAUNCHER;
  let file: string;
  try {
    file = realpathSync(script);
  } catch {
    return NPX_LAUNCHER;
  }
  const folder = packageFolder(file);
  if (folder !== undefined && fromRegistry(folder)) return NPX_LAUNCHER;
  return { command: process.execPath, args: [file], form: "local" };
}
