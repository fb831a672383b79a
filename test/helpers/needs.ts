// Tests that drive a real Chromium, redis-server or HAProxy, or a runtime npm installs (workerd, Deno,
// Bun): on a machine without one, the group that needs it is skipped once, naming the program and how
// to install it, instead of failing in its hooks.
// With CI=true (.ci/run sets it) a missing program fails the run instead: CI must run everything.
//
//   describe("in Chromium", { skip: needs("chromium") }, () => { before(...); test(...); });
//
// The programs are found as the demo finds Chromium (src/cli/find-program.ts): $ELICIT_CHROMIUM,
// $ELICIT_REDIS_SERVER, $ELICIT_HAPROXY, then the PATH, then the usual places.
import { test } from "node:test";
import { spawnSync } from "node:child_process";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { findProgram, PROGRAMS, type ProgramName } from "../../src/cli/find-program.js";

export const onCI = process.env.CI === "true" || process.env.CI === "1";

/**
 * Programs that come from npm packages (devDependencies), so `npm ci` installs them: the runtimes the
 * deployment tests run the fetch entry in. The value is the package that brings the binary.
 */
export const PACKAGED = { bun: "bun", deno: "deno", workerd: "miniflare" } as const;
export type PackagedProgram = keyof typeof PACKAGED;

const binDir = fileURLToPath(new URL("../../node_modules/.bin/", import.meta.url));
const packagedChecked = new Map<PackagedProgram, string>();

/** The packaged program's path in node_modules/.bin. */
export const packagedPath = (name: PackagedProgram): string => join(binDir, name);

/** Why a packaged program cannot run ("" when it answers --version): missing, or installed without its binary. */
function packagedReason(name: PackagedProgram): string {
  let reason = packagedChecked.get(name);
  if (reason === undefined) {
    const run = spawnSync(packagedPath(name), ["--version"], { encoding: "utf8", timeout: 30_000 });
    reason = run.status === 0 ? "" : `needs ${name}: npm ci (the devDependency ${PACKAGED[name]} brings it)`;
    packagedChecked.set(name, reason);
  }
  return reason;
}

/** Why `name` cannot be used, with its install line (test/helpers/skip-summary.mjs reads this shape), or "" when it is here. */
function missingReason(name: ProgramName | PackagedProgram): string {
  if (Object.hasOwn(PACKAGED, name)) return packagedReason(name as PackagedProgram);
  const found = findProgram(name as ProgramName);
  if (!("missing" in found)) return "";
  const { env, debianPackage } = PROGRAMS[name as ProgramName];
  const install = `apt-get install ${debianPackage}`;
  return process.env[env]
    ? `needs ${name}: ${found.missing} (fix or unset it, or ${install})`
    : `needs ${name}: ${install} (or set ${env})`;
}

/** Whether `name` is installed (for shared hooks that set a group's program up: they do nothing when it is skipped). */
export const has = (name: ProgramName | PackagedProgram): boolean => !missingReason(name);

const failedOnCI = new Set<string>();

/**
 * The `skip` option for a describe or test that runs these programs: false when all are here, else the
 * reason ("needs chromium: apt-get install chromium (or set ELICIT_CHROMIUM)"). On CI the group is still
 * skipped (so its hooks do not fail on top), and a test that fails with the same message takes its place.
 */
export function needs(...names: (ProgramName | PackagedProgram)[]): string | false {
  const reason = names.map(missingReason).filter(Boolean).join("; ");
  if (!reason) return false;
  if (onCI && !failedOnCI.has(reason)) {
    failedOnCI.add(reason);
    // Node places the failing test here, in this helper; the message names the group's own file and line.
    const caller = /(?:file:\/\/)?(\/[^():]+):(\d+):\d+/.exec(new Error().stack?.split("\n")[2] ?? "");
    const at = caller ? `, ${relative(process.cwd(), caller[1]!)}:${caller[2]}` : "";
    test(reason, () => {
      throw new Error(`${reason} (CI=${process.env.CI}: a missing program fails the run${at})`);
    });
  }
  return reason;
}

/** The program's path for spawning it; throws the skip reason when it is missing (a test that forgot needs() says why). */
export function programPath(name: ProgramName): string {
  const found = findProgram(name);
  if ("missing" in found) throw new Error(missingReason(name));
  return found.path;
}
