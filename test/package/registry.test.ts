// The release as a user gets it: both packages packed by the release's own step (scripts/pack-release.mjs)
// and published with `npm publish` to a local npm registry (verdaccio, on 127.0.0.1, its storage in a
// temporary folder), which takes everything else (the SDK, zod, @inquirer/*) from the real registry. Our
// two packages have no uplink there: nothing here asks the public registry for them. Then, with a scratch
// HOME whose .npmrc points at the local registry and a fresh `npm init -y` project, the README's own
// commands, read from README.md: `npm install mcp-elicit`, the terminal renderer's install line, the
// quickstart server and host as the README shows them (compiled with tsc --strict and run),
// `npx mcp-elicit-cli demo --answers`, and a host launched with the snippet `elicit gateway
// --print-config` prints, which books the trip. A file missing from a tarball makes one of them fail.
// Installs through the local registry fetch from the real one: 1 to 3 minutes in all.
import { after, before, test, type TestContext } from "node:test";
import assert from "node:assert/strict";
import { execFile, spawn, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { distIsCurrent } from "../../scripts/build-inputs.mjs";
import { buildWeb } from "../../scripts/build-web.mjs";
import { packRelease, type PackedRelease } from "../../scripts/pack-release.mjs";
import { killOnExit, removeOnExit } from "../helpers/cleanup.js";
import { freePort, stopChild } from "../helpers/processes.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { bookTripThrough, entryOf } from "../helpers/snippet-host.js";
import { watchText } from "../helpers/stream-text.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const README = readFileSync(join(root, "README.md"), "utf8");
/** The compiler `npm run build` uses (package.json's build script), npm's current TypeScript. */
const BUILD_TSC = join(root, "node_modules", "typescript7", "bin", "tsc");
const VERDACCIO = join(root, "node_modules", "verdaccio", "bin", "verdaccio");
/** An install through the local registry, fetching from the real one the first time. */
const INSTALL_MS = 180_000;
const started = Date.now();

let dir: string;
let registry: string;
let verdaccio: ChildProcess | undefined;
let packed: PackedRelease[];
/** The fresh `npm init -y` project. */
let project: string;
/** The environment every command runs in: the scratch HOME, its npm cache, none of npm's variables from `npm test`. */
let env: Record<string, string>;

/** One line on stderr with the time since the file started: the installs take a while. */
const progress = (line: string) => process.stderr.write(`registry.test: ${((Date.now() - started) / 1000).toFixed(0)} s: ${line}\n`);

async function run(command: string, args: string[], cwd: string, timeout = INSTALL_MS) {
  progress(`${command} ${args.join(" ")}`);
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout, maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** A shell command the README gives in backquotes, right after `before` (a piece of its text). */
function readmeCommand(before: RegExp): string[] {
  const match = new RegExp(`${before.source}\\s*\`(npm install [^\`]+)\``).exec(README);
  assert.ok(match, `README.md has an install line after ${before}`);
  return match[1]!.split(/\s+/);
}

/** The README's copy of an example file: what a reader pastes into a fresh project. */
function readmeExample(path: string): string {
  const match = new RegExp(`<!-- example: ${path.replace(/[.]/g, "\\.")} -->\\n\`\`\`ts\\n([\\s\\S]*?)\`\`\`\\n`).exec(README);
  assert.ok(match, `README.md shows ${path}`);
  return match[1]!;
}

/** Starts verdaccio on a free port of 127.0.0.1 with its config and storage in `home`; resolves with its URL. */
async function startRegistry(home: string, upstream: string): Promise<string> {
  const port = await freePort();
  const config = join(home, "config.yaml");
  // Our packages: published here, never proxied. Everything else: fetched from the real registry.
  writeFileSync(
    config,
    `storage: ./storage
auth:
  htpasswd:
    file: ./htpasswd
uplinks:
  upstream:
    url: ${JSON.stringify(upstream)}
    timeout: 60s
packages:
  "mcp-elicit":
    access: $all
    publish: $authenticated
  "mcp-elicit-cli":
    access: $all
    publish: $authenticated
  "**":
    access: $all
    proxy: upstream
log: { type: stdout, format: json, level: warn }
`,
  );
  verdaccio = killOnExit(
    spawn(process.execPath, [VERDACCIO, "--config", config, "--listen", `127.0.0.1:${port}`], {
      cwd: home,
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const out = watchText(verdaccio.stdout, 60_000);
  const exited = new Promise<never>((_, reject) =>
    verdaccio!.once("exit", (code) => reject(new Error(`verdaccio exited (${code}): ${out.text()}`))),
  );
  const [, url] = await Promise.race([out.waitFor(/http address - (http:\/\/127\.0\.0\.1:\d+\/)/), exited]);
  return url!;
}

/** A user on the local registry (its htpasswd, created by the first PUT), and its token for publishing. */
async function signUp(url: string): Promise<string> {
  const response = await fetch(new URL("-/user/org.couchdb.user:release-test", url), {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "release-test", password: "release-test-password", type: "user", roles: [] }),
  });
  const body = (await response.json()) as { token?: string };
  assert.ok(response.ok && body.token, `verdaccio refused the user: ${response.status} ${JSON.stringify(body)}`);
  return body.token;
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-elicit-registry-"));
  removeOnExit(dir); // also when the file is cut before its after hooks
  const home = join(dir, "home");
  mkdirSync(home);
  // npm run by `npm test` passes its config to scripts as npm_* variables: none of them here, the scratch HOME's .npmrc instead.
  env = {
    ...(Object.fromEntries(
      Object.entries({ ...process.env, ...NO_MODEL_ENV }).filter(([k, v]) => v !== undefined && !/^npm_/i.test(k) && k !== "INIT_CWD"),
    ) as Record<string, string>),
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    npm_config_cache: join(dir, "npm-cache"),
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
  };
  // The registry the repository's own installs use stands behind the local one.
  const upstream = (await promisify(execFile)("npm", ["config", "get", "registry"], { cwd: root })).stdout.trim();

  // What the release publishes: its own packing step, from dist/ when it is the build of the sources, else from a fresh build.
  let from: Record<string, string> = {};
  if (!distIsCurrent()) {
    // packRelease copies <from>/dist, so the build goes into a dist/ of its own, made as `npm run build` makes it.
    const build = join(dir, "build");
    const dist = join(build, "dist");
    await run(process.execPath, [BUILD_TSC, "-p", join(root, "tsconfig.build.json"), "--outDir", dist], root);
    chmodSync(join(dist, "cli", "main.js"), 0o755);
    await buildWeb({ outdir: join(dist, "web") });
    from = { ".": build };
  }
  packed = packRelease({ outDir: join(dir, "tarballs"), from });
  progress(`packed ${packed.map((p) => `${p.name}@${p.version} (${(p.size / 1024).toFixed(1)} kB)`).join(", ")}`);

  registry = await startRegistry(home, upstream);
  const token = await signUp(registry);
  const host = new URL(registry).host;
  writeFileSync(join(home, ".npmrc"), `registry=${registry}\n//${host}/:_authToken=${token}\n`);
  for (const { tarball } of packed) await run("npm", ["publish", tarball], home);

  project = join(dir, "project");
  mkdirSync(project);
  await run("npm", ["init", "-y"], project);
});

after(async () => {
  if (verdaccio) await stopChild(verdaccio);
  if (dir) rmSync(dir, { recursive: true, force: true });
  progress("the registry is stopped and its folders removed");
});

test("the local registry has our packages as published, and only from us", async () => {
  for (const { name, version } of packed) {
    const response = await fetch(new URL(name, registry));
    const doc = (await response.json()) as { versions?: Record<string, { scripts?: unknown }> };
    assert.deepEqual(Object.keys(doc.versions ?? {}), [version], `${name}: the version we published, and no other`);
    assert.equal(doc.versions![version]!.scripts, undefined, `${name}: no scripts in the published manifest`);
  }
});

test("`npm install mcp-elicit`, as the README says: no install script, the peers with it", { timeout: INSTALL_MS + 30_000 }, async () => {
  const command = readmeCommand(/In your own project:/);
  assert.deepEqual(command, ["npm", "install", "mcp-elicit"]);
  const { stderr } = await run(command[0]!, command.slice(1), project);
  // A published `prepare` made npm 11 say "mcp-elicit@0.1.0 (prepare: node scripts/prepare.mjs)" among the install scripts to approve.
  const aboutScripts = stderr.split("\n").filter((line) => /install-scripts/.test(line) && /mcp-elicit/.test(line));
  assert.deepEqual(aboutScripts, [], "npm names no install script of ours");
  for (const name of ["mcp-elicit", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "zod"])
    assert.ok(readFileSync(join(project, "node_modules", name, "package.json"), "utf8"), `${name} is installed`);
  const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string }> };
  assert.ok(lock.packages["node_modules/mcp-elicit"]!.resolved!.startsWith(registry), "mcp-elicit came from the local registry");
});

test("the terminal renderer's install line, as the README gives it, installs", { timeout: INSTALL_MS + 30_000 }, async () => {
  const command = readmeCommand(/`mcp-elicit\/terminal` also needs/);
  await run(command[0]!, command.slice(1), project);
  for (const name of command.slice(2).filter((w) => !w.startsWith("-")))
    assert.ok(readFileSync(join(project, "node_modules", name.replace(/(?<=.)@.*$/, ""), "package.json"), "utf8"), `${name} is installed`);
});

test("the README's quickstart server and host compile with tsc --strict and book the trip", { timeout: INSTALL_MS + 120_000 }, async () => {
  // The project as docs/server/set-up-a-project.md makes it: a module, its tsconfig.json, @types/node.
  await run("npm", ["pkg", "set", "type=module"], project);
  await run("npm", ["install", "-D", "@types/node"], project, INSTALL_MS);
  const tsconfig = JSON.parse(readFileSync(join(root, "examples", "project", "tsconfig.json"), "utf8"));
  tsconfig.compilerOptions.outDir = "out";
  writeFileSync(join(project, "tsconfig.json"), JSON.stringify(tsconfig));
  writeFileSync(join(project, "quickstart-server.ts"), readmeExample("examples/quickstart-server.ts"));
  writeFileSync(join(project, "quickstart-host.ts"), readmeExample("examples/quickstart-host.ts"));
  // npm's current TypeScript (7, the repository's build compiler; the consumer type tests also try 5.9).
  await run(process.execPath, [BUILD_TSC, "-p", "."], project, 90_000);
  const { stdout } = await run(process.execPath, [join("out", "quickstart-host.js")], project, 60_000);
  assert.equal(stdout.trim(), "[ { type: 'text', text: 'Booked Barcelona, seat: window' } ]");
});

test("`npx mcp-elicit-cli demo --answers` runs the travel demo to its end", { timeout: INSTALL_MS + 60_000 }, async () => {
  const { stdout } = await run(
    "npx",
    ["-y", "mcp-elicit-cli", "demo", "--answers", join(root, "examples", "answers.yaml")],
    project,
    INSTALL_MS + 30_000,
  );
  // The passport's photo page first: uploaded by the headless browser, or (without one) declined, and said so.
  assert.match(
    stdout,
    /^── 3 of 7: book the trip ──\n(?:\([^\n]*\)\n)?Booked! Reference ELC-[^\n]*(?:Passport photo page received|The passport's photo page was not given)/m,
  );
  assert.match(stdout, /^── 7 of 7: /m);
});

test(
  "a host launched with the snippet `elicit gateway --print-config` prints completes book_trip",
  { timeout: INSTALL_MS + 120_000 },
  async (t: TestContext) => {
    // `npm install --save-dev mcp-elicit-cli` for `npx elicit`, as the README says; installed from a
    // registry, the snippet is npx's form, and npx finds mcp-elicit-cli on the local registry.
    await run("npm", ["install", "--save-dev", "mcp-elicit-cli"], project);
    const { stdout, stderr } = await run(
      "npx",
      ["elicit", "gateway", "--print-config", "claude-desktop", "--", "elicit", "serve", "travel"],
      project,
      60_000,
    );
    const entry = entryOf(stdout);
    assert.deepEqual(entry, {
      command: "npx",
      args: ["-y", "--package=mcp-elicit-cli", "elicit", "gateway", "--", "elicit", "serve", "travel"],
    });
    assert.match(stderr, /^Merge this into claude_desktop_config\.json/);
    // The host starts it in a folder of its own.
    const hostCwd = join(dir, "host");
    mkdirSync(hostCwd);
    let log = "";
    progress("a host launches the snippet");
    const { text, asked } = await bookTripThrough(entry, { cwd: hostCwd, env, timeoutMs: INSTALL_MS, onStderr: (s) => (log += s) });
    t.diagnostic(`the host was asked: ${asked.join(" | ")}`);
    assert.match(text, /^Booked! Reference ELC-/, log);
    progress("done");
  },
);
