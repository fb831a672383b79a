// What a run of the built `elicit` bin loads: a synchronous module hook (module.registerHooks, which
// sees `require` inside CommonJS packages as well as `import`) logs every file the bin loads. Used by
// startup.test.ts (help loads no heavy dependency) and bench/cli-start.ts (which modules --help loads).
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";

export const BIN = fileURLToPath(new URL("../../dist/cli/main.js", import.meta.url));

export interface LoadedModules {
  /** Every file loaded, in load order (absolute paths). */
  files: string[];
  /** The node_modules packages those files belong to, sorted. */
  packages: string[];
  stdout: string;
}

/** The package a path under node_modules belongs to (`@scope/name` or `name`), else undefined. */
export function packageOf(path: string): string | undefined {
  const at = path.lastIndexOf("node_modules/");
  return at >= 0 ? /^(?:@[^/]+\/)?[^/]+/.exec(path.slice(at + "node_modules/".length))?.[0] : undefined;
}

/** Runs `node BIN ...args` with the hook and returns what it loaded. */
export async function modulesLoadedBy(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<LoadedModules> {
  const dir = mkdtempSync(join(tmpdir(), "elicit-loaded-"));
  try {
    const log = join(dir, "loaded.txt");
    const hook = join(dir, "hook.mjs");
    writeFileSync(
      hook,
      `import { registerHooks } from "node:module";
import { openSync, writeSync } from "node:fs";
const fd = openSync(${JSON.stringify(log)}, "w");
registerHooks({
  load(url, context, next) {
    const result = next(url, context);
    if (url.startsWith("file:")) writeSync(fd, url + "\\n");
    return result;
  },
});`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, ["--import", pathToFileURL(hook).href, BIN, ...args], { env });
    const files = readFileSync(log, "utf8")
      .split("\n")
      .filter(Boolean)
      .map((url) => fileURLToPath(url));
    const packages = [...new Set(files.map(packageOf).filter((name) => name !== undefined))].sort();
    return { files, packages, stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Bytes on disk of each file, largest first: what the loader had to read and compile. */
export function bySize(files: string[]): { file: string; bytes: number }[] {
  return files.map((file) => ({ file, bytes: statSync(file).size })).sort((a, b) => b.bytes - a.bytes);
}
