// Where the programs the demo, the tests and the bench drive are: Chromium (headless pages), redis-server
// and HAProxy (the fleet). One finder for all of them, so `elicit demo`, `npm test` and .ci/run agree on
// what is installed: the environment variable first, then the PATH, then where packages usually put it.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export interface ProgramInfo {
  /** The environment variable that names the program's path; when set, nothing else is looked at. */
  env: string;
  /** The Debian package that provides it (what .ci/run installs). */
  debianPackage: string;
  /** Names looked up on the PATH, in order. */
  commands: string[];
  /** Where it usually is when the PATH does not have it (/usr/sbin is not on a user's PATH; macOS apps never are). */
  places: string[];
}

export const PROGRAMS = {
  chromium: {
    env: "ELICIT_CHROMIUM",
    debianPackage: "chromium",
    commands: ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"],
    places: [
      "/usr/bin/chromium",
      "/usr/bin/chromium-browser",
      "/usr/bin/google-chrome",
      "/snap/bin/chromium",
      "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
      "/Applications/Chromium.app/Contents/MacOS/Chromium",
    ],
  },
  "redis-server": {
    env: "ELICIT_REDIS_SERVER",
    debianPackage: "redis-server",
    commands: ["redis-server"],
    places: ["/usr/bin/redis-server", "/usr/local/bin/redis-server", "/opt/homebrew/bin/redis-server"],
  },
  haproxy: {
    env: "ELICIT_HAPROXY",
    debianPackage: "haproxy",
    commands: ["haproxy"],
    places: ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy", "/usr/local/bin/haproxy", "/opt/homebrew/bin/haproxy"],
  },
} satisfies Record<string, ProgramInfo>;

export type ProgramName = keyof typeof PROGRAMS;

export type FoundProgram = { path: string } | { missing: string };

/** A regular file we may execute (a directory, or /dev/null bound over the program, is not one). */
function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The program's path, or why there is none (said as is: it names the environment variable to set). */
export function findProgram(name: ProgramName, env: NodeJS.ProcessEnv = process.env): FoundProgram {
  return locateProgram(name, PROGRAMS[name], env);
}

/** findProgram for a program that is not one of PROGRAMS (nothing the suite needs, so CI installs nothing for it). */
export function locateProgram(name: string, info: ProgramInfo, env: NodeJS.ProcessEnv = process.env): FoundProgram {
  const given = env[info.env];
  if (given) {
    if (executable(given)) return { path: given };
    // A path given on purpose is not second-guessed: falling back would run another program than the one named.
    let exists = true;
    try {
      statSync(given);
    } catch {
      exists = false;
    }
    return { missing: `${info.env} names ${JSON.stringify(given)}, which ${exists ? "is not an executable file" : "does not exist"}` };
  }
  const dirs = (env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const command of info.commands) for (const dir of dirs) if (executable(join(dir, command))) return { path: join(dir, command) };
  const place = info.places.find(executable);
  if (place) return { path: place };
  return { missing: `no ${name} was found on the PATH or in the usual places (set ${info.env} to its path)` };
}
