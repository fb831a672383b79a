// The packages as users get them: `npm pack` of the library and of the CLI (packages/cli), then two
// scratch projects. One installs the library alone, as a server or host author does (the SDK and zod come
// in as peers, installed by npm itself): it must hold none of the CLI's packages, and the entry points that
// need them must say which to install. The other installs the CLI beside it: every entry point imported
// and type-checked, `npx elicit` run, and the module graph of `mcp-elicit/client` checked for the terminal
// UI and model libraries it must not load. Needs the npm registry (or npm's cache); takes 60-120 s.
//
// The library's tarball is packed from a staging folder (package.json, README.md and a build of src/ as it is
// into its dist/: a copy of dist/ when its stamp says it is that build, else a fresh one), not from the repo,
// so that this test neither packs a stale dist/ nor rewrites the dist/ that other test files are running at
// the same time; `files` and `exports` are the repo's own package.json.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import {
  chmodSync,
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { distIsCurrent } from "../../scripts/build-inputs.mjs";
import { buildWeb } from "../../scripts/build-web.mjs";
import { removeOnExit } from "../helpers/cleanup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  version: string;
  bin?: unknown;
  exports: Record<string, unknown>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const cliPkg = JSON.parse(readFileSync(join(root, "packages", "cli", "package.json"), "utf8")) as {
  name: string;
  version: string;
  bin: Record<string, string>;
  dependencies: Record<string, string>;
};
const TSC = join(root, "node_modules", "typescript", "bin", "tsc");

/** Each entry point and (some of) the runtime exports it must have; types are checked by the TS file below. */
const ENTRIES: Record<string, string[]> = {
  schema: [
    "form",
    "text",
    "number",
    "integer",
    "yesNo",
    "choice",
    "multiChoice",
    "fromZod",
    "ElicitError",
    "InvalidSchemaError",
    "checkSchema",
    "validateContent",
    "applyDefaults",
    "describeFields",
    "encodeForRevision",
    "SCHEMA_RULES",
  ],
  server: [
    "createElicitation",
    "createFetchHandler",
    "SessionRequiredError",
    "InvalidAnswerError",
    "InputTimeoutError",
    "StateError",
    "CLIENT_FEATURES",
    "checkSampleParams",
  ],
  client: [
    "attachElicitation",
    "attachSampling",
    "attachRoots",
    "analyzeUrl",
    "sanitizeText",
    "PendingUrlElicitations",
    "UrlElicitationEndedError",
    "ProviderError",
    "CALL_TIMEOUT_MS",
    "MAX_LABEL_LENGTH",
    "MAX_MESSAGE_LENGTH",
    "OAuthProvider",
    "LoginError",
    "loginErrorOf",
    "memoryTokenStore",
    "fileTokenStore",
    "configFolder",
  ],
  terminal: ["terminalUI"],
  scripted: ["scriptedUI", "readAnswersFile", "parseAnswers", "AnswersFileError"],
  openai: ["openAICompatibleProvider", "providerFromEnv", "ProviderError"],
  store: ["memoryStore", "sqliteStore", "sqlStore", "nodeSqliteDriver", "bunSqliteDriver", "betterSqlite3Driver", "upstashStore"],
  cloudflare: [
    "durableObjectStore",
    "ElicitStoreObject",
    "durableObjectStoreClient",
    "d1Store",
    "d1Driver",
    "durableObjectSqlDriver",
    "routeSession",
    "sessionObjectHandler",
    "upstashStore",
  ],
  oidc: ["startOpenIdProvider", "DEFAULT_USERS", "DEFAULT_RESOURCE_SCOPES"],
  web: ["webUI", "elementsBundlePath", "DEFAULT_DISCONNECT_GRACE_MS"],
  node: ["serveHttp", "DEFAULT_SESSION_IDLE_MS", "DEFAULT_MAX_SESSIONS"],
};

/** Browser bundles: exported for hosts to serve, not to import in Node. Export -> the file it points at. */
const BUNDLES: Record<string, string> = {
  "web/elements": "dist/web/elements.js",
  "web/elements/form": "dist/web/elements/form.js",
  "web/elements/url-consent": "dist/web/elements/url-consent.js",
  "web/elements/sampling-review": "dist/web/elements/sampling-review.js",
};

/** The `elicit` command: run when imported (by mcp-elicit-cli's bin), so not imported by the tests here. */
const COMMAND: Record<string, string> = { cli: "dist/cli/run.js" };

/** Packages only the renderers, the model provider, the sign-in server and the command may load. */
const UI_ONLY = /^(?:@inquirer\/.+|ora|open|openai|yaml|commander|oidc-provider)$/;

/** What only the CLI, the terminal renderer, the OpenAI provider and the demo's sign-in server use. */
const CLI_ONLY = ["commander", "@inquirer/prompts", "@inquirer/core", "ora", "open", "openai", "oidc-provider"];
/** Some of their own dependencies, which nothing else of the library's brings either. */
const CLI_ONLY_DEPS = ["koa", "cli-spinners", "log-symbols", "default-browser", "chardet", "mute-stream"];

/**
 * At most this many packages (the library, its dependencies and its peers, nested ones included) in a
 * project that installs the library alone: 31 when written (130 before the CLI's packages moved to
 * mcp-elicit-cli), with room for the dependencies' own dependencies to change.
 */
const MAX_LIBRARY_PACKAGES = 40;

let dir: string;
/** A project with the library alone: what a server or host author installs. */
let lib: string;
/** A project with the library and the CLI. */
let app: string;
let packed: { filename: string; files: { path: string }[] };
let packedCli: { filename: string; files: { path: string }[] };

// npm run by `npm test` passes its config to scripts as npm_* variables (npm_config_local_prefix and the
// like): without them, npm in the scratch project works on the scratch project only.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD"));

async function run(command: string, args: string[], cwd: string, timeout = 90_000) {
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout, maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-elicit-pack-"));
  removeOnExit(dir); // also when the file is cut before its after hooks
  const stage = join(dir, "pkg");
  mkdirSync(stage);
  for (const file of ["package.json", "README.md", "LICENSE", "CHANGELOG.md"])
    if (existsSync(join(root, file))) copyFileSync(join(root, file), join(stage, file));
  if (distIsCurrent()) {
    // dist/ is the build of the sources as they are (its stamp is their hash: npm test's prepare built it or
    // found it current), so a copy of it is what a fresh build would make, without compiling src/ again.
    cpSync(join(root, "dist"), join(stage, "dist"), { recursive: true });
  } else {
    await run(process.execPath, [TSC, "-p", join(root, "tsconfig.build.json"), "--outDir", join(stage, "dist")], root);
    chmodSync(join(stage, "dist", "cli", "main.js"), 0o755);
    // The browser bundles, as `npm run build` makes them.
    await buildWeb({ outdir: join(stage, "dist", "web") });
  }
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], stage);
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;
  // The CLI's folder as it is: its bin and package.json need no build.
  const cliStage = join(dir, "cli");
  cpSync(join(root, "packages", "cli"), cliStage, { recursive: true, filter: (src) => !src.includes("node_modules") });
  const cli = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], cliStage);
  packedCli = (JSON.parse(cli.stdout) as (typeof packedCli)[])[0]!;

  // npm installs the local tarballs and fetches the rest from the registry (or its cache).
  const install = (project: string, tarballs: string[]) => {
    mkdirSync(project);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
    return run("npm", ["install", ...tarballs.map((t) => join(dir, t)), "--prefer-offline", "--no-audit", "--no-fund"], project, 150_000);
  };
  lib = join(dir, "lib");
  app = join(dir, "app");
  // Two projects, two installs at once (npm's cache takes concurrent readers and writers).
  await Promise.all([install(lib, [packed.filename]), install(app, [packed.filename, packedCli.filename])]);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the tarball holds package.json, README.md, LICENSE, CHANGELOG.md and dist/: no sources, tests or source maps", () => {
  const paths = packed.files.map((f) => f.path);
  for (const p of paths) assert.match(p, /^(?:package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+\.(?:js|d\.ts))$/, p);
  for (const file of ["LICENSE", "CHANGELOG.md"]) assert.ok(paths.includes(file), file);
  assert.ok(paths.includes("dist/cli/main.js"), "the elicit command's code");
  assert.equal(pkg.bin, undefined, "no bin: `elicit` is mcp-elicit-cli's, so that a library install has no command it cannot run");
  for (const entry of Object.keys(ENTRIES)) {
    assert.ok(pkg.exports[`./${entry}`], `package.json exports ./${entry}`);
    assert.ok(paths.includes(`dist/${entry}/index.js`) && paths.includes(`dist/${entry}/index.d.ts`), entry);
  }
  assert.deepEqual(
    Object.keys(pkg.exports).sort(),
    [...[...Object.keys(ENTRIES), ...Object.keys(BUNDLES), ...Object.keys(COMMAND)].map((e) => `./${e}`), "./package.json"].sort(),
    "every export is tested here",
  );
  for (const [entry, file] of Object.entries(BUNDLES)) {
    const { import: path, types } = pkg.exports[`./${entry}`] as { import?: string; types?: string };
    assert.equal(path, `./${file}`, entry);
    assert.ok(paths.includes(file), file);
    assert.ok(types && paths.includes(types.slice(2)), `${entry}: its types ${types}`);
  }
  assert.ok(paths.includes("dist/web/page.js"), "the page webUI serves");
  for (const [entry, file] of Object.entries(COMMAND)) {
    assert.equal((pkg.exports[`./${entry}`] as { import?: string }).import, `./${file}`, entry);
    assert.ok(paths.includes(file), file);
  }
});

test("the CLI's tarball: its bin and package.json, README.md and LICENSE; this version of mcp-elicit and the library's optional peers", () => {
  assert.deepEqual(packedCli.files.map((f) => f.path).sort(), ["LICENSE", "README.md", "bin/elicit.js", "package.json"]);
  assert.deepEqual(cliPkg.bin, { elicit: "bin/elicit.js" });
  assert.equal(cliPkg.version, pkg.version, "released together");
  assert.equal(cliPkg.dependencies["mcp-elicit"], pkg.version, "pinned: the command is the library's code of the same version");
  // It brings every optional peer the command imports, at the library's range, and the SDK and zod the library needs.
  for (const name of CLI_ONLY) {
    assert.equal(pkg.peerDependenciesMeta[name]?.optional, true, `${name} is an optional peer of mcp-elicit`);
    assert.equal(cliPkg.dependencies[name], pkg.peerDependencies[name], `mcp-elicit-cli depends on ${name} at the peer range`);
    assert.equal(pkg.dependencies[name], undefined, `${name} is not a dependency of mcp-elicit`);
  }
  for (const name of ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/node", "zod"])
    assert.ok(cliPkg.dependencies[name], `mcp-elicit-cli depends on ${name}`);
  assert.equal(readFileSync(join(root, "packages", "cli", "LICENSE"), "utf8"), readFileSync(join(root, "LICENSE"), "utf8"));
});

/** Every package npm installed in `project` (nested ones included), from its hidden lockfile. */
function installedPackages(project: string): string[] {
  const lock = JSON.parse(readFileSync(join(project, "node_modules", ".package-lock.json"), "utf8")) as {
    packages: Record<string, unknown>;
  };
  return Object.keys(lock.packages).filter(Boolean);
}

/** Bytes on disk under `path`, symlinks not followed. */
function sizeOf(path: string): number {
  const stat = statSync(path, { throwIfNoEntry: false });
  if (!stat) return 0;
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of readdirSync(path, { withFileTypes: true })) total += entry.isSymbolicLink() ? 0 : sizeOf(join(path, entry.name));
  return total;
}

test("`npm i mcp-elicit` alone installs what a server or host author needs: none of the CLI's packages", (t) => {
  const packages = installedPackages(lib);
  const mib = sizeOf(join(lib, "node_modules")) / 2 ** 20;
  t.diagnostic(`npm i mcp-elicit: ${packages.length} packages, ${mib.toFixed(1)} MiB`);
  t.diagnostic(
    `with mcp-elicit-cli: ${installedPackages(app).length} packages, ${(sizeOf(join(app, "node_modules")) / 2 ** 20).toFixed(1)} MiB`,
  );
  assert.ok(packages.length <= MAX_LIBRARY_PACKAGES, `${packages.length} packages: more than ${MAX_LIBRARY_PACKAGES}`);
  const names = new Set(packages.map((p) => p.slice(p.lastIndexOf("node_modules/") + "node_modules/".length)));
  assert.deepEqual(
    [...CLI_ONLY, ...CLI_ONLY_DEPS].filter((name) => names.has(name)),
    [],
    "the CLI's packages are not installed",
  );
  for (const name of ["mcp-elicit", "@modelcontextprotocol/server", "@modelcontextprotocol/client", "zod", "yaml", "hono"])
    assert.ok(names.has(name), `${name} is installed`);
  assert.ok(!existsSync(join(lib, "node_modules", ".bin", "elicit")), "no elicit bin without the CLI");
  // Beside the CLI: its packages, and one copy of the library, shared.
  const withCli = installedPackages(app);
  for (const name of [...CLI_ONLY, "mcp-elicit-cli"]) assert.ok(withCli.includes(`node_modules/${name}`), `${name} comes with the CLI`);
  assert.deepEqual(
    withCli.filter((p) => p.endsWith("node_modules/mcp-elicit")),
    ["node_modules/mcp-elicit"],
  );
});

test("without the CLI's packages, the entry points that need them name what to install; the rest load", async () => {
  const script = `
const out = {};
for (const e of ${JSON.stringify(Object.keys(ENTRIES))}) {
  try { out[e] = Object.keys(await import("mcp-elicit/" + e)); } catch (error) { out[e] = String(error.message); }
}
const { webUI } = await import("mcp-elicit/web");
const logged = [];
const ui = await webUI({ log: (line) => logged.push(line) });
for (let i = 0; i < 100 && logged.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
await ui.close();
out.webUIOpen = logged.join("\\n");
console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], lib);
  const loaded = JSON.parse(stdout) as Record<string, string[] | string>;
  for (const entry of ["schema", "server", "client", "scripted", "store", "web"]) {
    assert.ok(Array.isArray(loaded[entry]), `mcp-elicit/${entry} loads: ${String(loaded[entry])}`);
    for (const name of ENTRIES[entry]!) assert.ok(loaded[entry]!.includes(name), `mcp-elicit/${entry} exports ${name}`);
  }
  assert.equal(
    loaded.terminal,
    "mcp-elicit/terminal needs @inquirer/prompts, @inquirer/core and ora (optional peer dependencies of mcp-elicit, not installed): npm install @inquirer/prompts @inquirer/core ora open",
  );
  assert.equal(
    loaded.openai,
    "mcp-elicit/openai needs openai (an optional peer dependency of mcp-elicit, not installed): npm install openai",
  );
  assert.equal(
    loaded.oidc,
    "mcp-elicit/oidc needs oidc-provider (an optional peer dependency of mcp-elicit, not installed): npm install oidc-provider",
  );
  // webUI still serves its page; only opening the browser needs `open`, and it says so.
  assert.match(
    loaded.webUIOpen as string,
    /^Could not open a browser \(Opening the system browser needs open \(an optional peer dependency of mcp-elicit, not installed\): npm install open\); open the address yourself\.$/,
  );
});

test("the command without the CLI's packages: one line naming them, exit code 2", async () => {
  const child = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", 'await import("mcp-elicit/cli")'], {
    cwd: lib,
    env,
  }).then(
    () => assert.fail("exit code 0"),
    (error: { code?: number; stdout: string; stderr: string }) => error,
  );
  assert.equal(child.code, 2);
  assert.equal(child.stdout, "");
  assert.equal(
    child.stderr,
    "elicit: The elicit command needs commander, @inquirer/prompts, @inquirer/core, ora, open, openai, oidc-provider and file-type (optional peer dependencies of mcp-elicit, not installed): npm install commander @inquirer/prompts @inquirer/core ora open openai oidc-provider file-type, or use the package that brings them: npx mcp-elicit-cli --help\n",
  );
});

test("ctx.elicitFile without file-type: the tool ends naming its install line, before any link is sent", async () => {
  // A server and client in memory, from the library installed alone (file-type is an optional peer).
  const script = `
    import { Client } from "@modelcontextprotocol/client";
    import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
    import { createElicitation, createUrlKit } from "mcp-elicit/server";
    const urlKit = createUrlKit({ identity: "loopback", serverName: "visas" });
    const kit = createElicitation({ urlKit });
    const server = new McpServer({ name: "visas", version: "1.0.0" });
    kit.registerTool(server, "apply", { description: "Asks for a file" }, async (_args, ctx) => {
      await ctx.elicitFile("Upload the passport page", { accept: ["application/pdf"], maxBytes: 1000 });
      return { content: [{ type: "text", text: "uploaded" }] };
    });
    const [a, b] = InMemoryTransport.createLinkedPair();
    await server.connect(a);
    const client = new Client({ name: "host", version: "1.0.0" }, { capabilities: { elicitation: { url: {} } } });
    let asked = 0;
    client.setRequestHandler("elicitation/create", async () => (asked++, { action: "accept" }));
    await client.connect(b);
    const result = await client.callTool({ name: "apply", arguments: {} });
    console.log(JSON.stringify({ text: result.content[0].text, isError: result.isError, asked }));
    await client.close();
    await urlKit.close();`;
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script], { cwd: lib, env });
  const result = JSON.parse(stdout) as { text: string; isError: boolean; asked: number };
  assert.equal(result.isError, true);
  assert.match(
    result.text,
    /ctx\.elicitFile needs file-type \(an optional peer dependency of mcp-elicit, not installed\): npm install file-type/,
  );
  assert.equal(result.asked, 0, "no link was sent");
});

test("one install gets the peers: the MCP SDK packages and zod, at versions in the peer ranges", () => {
  const installed = JSON.parse(readFileSync(join(lib, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  assert.deepEqual(Object.keys(installed.dependencies), ["mcp-elicit"]);
  for (const name of ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/node", "zod"]) {
    const file = join(lib, "node_modules", name, "package.json");
    assert.ok(existsSync(file), `${name} installed next to mcp-elicit`);
    const { version } = JSON.parse(readFileSync(file, "utf8")) as { version: string };
    const range = pkg.peerDependencies[name]!;
    const [major, minor] = version.split(".").map(Number);
    // The ranges are `>=X.Y.Z <X.Y+1.0` (SDK) and `^X.Y.Z` (zod): the installed major/minor is the tested one or, for zod, a later 4.x.
    const floor = range
      .match(/(\d+)\.(\d+)\.\d+/)!
      .slice(1)
      .map(Number);
    assert.equal(major, floor[0], `${name}@${version} in ${range}`);
    assert.ok(range.startsWith("^") ? minor! >= floor[1]! : minor === floor[1], `${name}@${version} in ${range}`);
  }
});

test("beside the CLI, every entry point loads, with named exports only", async () => {
  const script = `const out = {}; for (const e of ${JSON.stringify(Object.keys(ENTRIES))}) out[e] = Object.keys(await import("mcp-elicit/" + e)); console.log(JSON.stringify(out));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script], app);
  const loaded = JSON.parse(stdout) as Record<string, string[]>;
  for (const [entry, names] of Object.entries(ENTRIES)) {
    assert.ok(!loaded[entry]!.includes("default"), `mcp-elicit/${entry} has no default export`);
    for (const name of names) assert.ok(loaded[entry]!.includes(name), `mcp-elicit/${entry} exports ${name}`);
  }
});

test("a TypeScript file importing every entry point, option types included, type-checks against the installed package", async () => {
  writeFileSync(
    join(app, "check.ts"),
    `
import { form, yesNo, type BaseFieldOptions, type Infer, type TextOptions } from "mcp-elicit/schema";
import { createElicitation, createFetchHandler, type ElicitationOptions, type ElicitOptions, type FetchHandler, type FetchHandlerOptions, type HttpAuthOptions, type Principal, type ServerFactory } from "mcp-elicit/server";
import { serveHttp, type ServeHttpOptions } from "mcp-elicit/node";
import { routeSession, sessionObjectHandler, type DurableObjectNamespaceLike } from "mcp-elicit/cloudflare";
import { attachElicitation, attachSampling, type AttachOptions, type ElicitationUI, type ModelProvider, type SamplingOptions, type SamplingUI } from "mcp-elicit/client";
import { terminalUI, type TerminalUIOptions } from "mcp-elicit/terminal";
import { scriptedUI, readAnswersFile, type ScriptedAnswer, type ScriptedUIOptions } from "mcp-elicit/scripted";
import { openAICompatibleProvider, type OpenAICompatibleOptions } from "mcp-elicit/openai";
import { memoryStore, type KeyValueStore, type MemoryStoreOptions, type SqliteStoreOptions } from "mcp-elicit/store";
import { startOpenIdProvider, type OpenIdProviderOptions } from "mcp-elicit/oidc";
import { webUI, elementsBundlePath, type WebUI, type WebUIOptions } from "mcp-elicit/web";
import { Client } from "@modelcontextprotocol/client";

const f = form({ ok: yesNo({ title: "OK" } satisfies BaseFieldOptions<boolean>) });
const answer: Infer<typeof f> = { ok: true };
const scripted: ElicitationUI & SamplingUI = scriptedUI([{ action: "accept", content: answer }] satisfies ScriptedAnswer[], {} satisfies ScriptedUIOptions);
const terminal: ElicitationUI = terminalUI({} satisfies TerminalUIOptions);
const provider: ModelProvider = openAICompatibleProvider({ baseURL: "http://127.0.0.1:1/v1", models: "m" } satisfies OpenAICompatibleOptions);
const store: KeyValueStore = memoryStore({} satisfies MemoryStoreOptions);
const kit = createElicitation({ store } satisfies ElicitationOptions);
const client = new Client({ name: "scratch", version: "1.0.0" });
attachElicitation(client, { ui: scripted } satisfies AttachOptions);
attachSampling(client, { ui: scripted, provider } satisfies SamplingOptions);
const answers: Promise<ScriptedAnswer[]> = readAnswersFile("answers.yaml");
const oidc = startOpenIdProvider({ users: [{ id: "ana", password: "pw" }] } satisfies OpenIdProviderOptions);
const web: Promise<WebUI> = webUI({ open: false } satisfies WebUIOptions);
const handler: FetchHandler = createFetchHandler(() => { throw new Error("not called"); }, {} satisfies FetchHandlerOptions);
void [terminal, kit, answers, oidc, web, elementsBundlePath(), handler, serveHttp, routeSession, sessionObjectHandler, {} as DurableObjectNamespaceLike, {} as TextOptions, {} as ElicitOptions, {} as ServeHttpOptions, {} as HttpAuthOptions, {} as Principal, {} as ServerFactory, {} as SqliteStoreOptions];
`,
  );
  writeFileSync(
    join(app, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "NodeNext",
        moduleResolution: "NodeNext",
        strict: true,
        noEmit: true,
        // Our .d.ts files are checked too, not only their use; Node's types come from the repo.
        skipLibCheck: false,
        typeRoots: [join(root, "node_modules", "@types")],
        types: ["node"],
      },
      files: ["check.ts"],
    }),
  );
  await run(process.execPath, [TSC, "-p", "tsconfig.json"], app);
});

test("npx elicit works in the project with the CLI: --help, and a call to the travel server with an answers file", async () => {
  const help = await run("npx", ["elicit", "--help"], app);
  assert.match(help.stdout, /^Usage: elicit /m);
  for (const command of ["lint", "serve", "call", "connect", "demo"]) assert.match(help.stdout, new RegExp(`^  ${command} `, "m"));
  const args = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });
  const { stdout } = await run(
    "npx",
    [
      "elicit",
      "call",
      "book_trip",
      "--args",
      args,
      "--answers",
      join(root, "examples", "answers.yaml"),
      "--",
      "npx",
      "elicit",
      "serve",
      "travel",
    ],
    app,
  );
  assert.match(JSON.parse(stdout).content[0].text, /^Booked! Reference ELC-/);
});

// The module graph of one import, in a child process. ESM imports do not show in require.cache, and
// process.moduleLoadList names only Node's built-ins, so the probe registers a loader hook
// (module.register): its resolve hook sees every specifier the ESM loader resolves, and our dist/ is ESM,
// so every package our code imports passes through it. In Node 20 that hook does not see require() calls
// inside CommonJS packages, so the probe adds require.cache, which lists every CommonJS file loaded
// (including CommonJS packages imported from ESM). The hook runs on the loader thread and appends each URL
// to a file synchronously: once `await import()` settles, every resolution is in the file.
async function packagesLoadedBy(entry: string): Promise<Set<string>> {
  writeFileSync(
    join(app, "probe-hook.mjs"),
    `import { appendFileSync } from "node:fs";
let log;
export function initialize(data) { log = data.log; }
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(log, result.url + "\\n");
  return result;
}
`,
  );
  writeFileSync(
    join(app, "probe.mjs"),
    `import { register, createRequire } from "node:module";
import { appendFileSync, writeFileSync } from "node:fs";
const [log, entry] = process.argv.slice(2);
writeFileSync(log, "");
register(new URL("./probe-hook.mjs", import.meta.url), { data: { log } });
await import(entry);
appendFileSync(log, Object.keys(createRequire(import.meta.url).cache).map((file) => file + "\\n").join(""));
`,
  );
  const log = join(dir, `loaded-${entry.replace(/\W/g, "-")}.txt`);
  await run(process.execPath, ["probe.mjs", log, entry], app);
  const packages = new Set<string>();
  for (const line of readFileSync(log, "utf8").split("\n")) {
    const at = line.lastIndexOf("node_modules/");
    const name = at >= 0 ? /^(?:@[^/]+\/)?[^/]+/.exec(line.slice(at + "node_modules/".length))?.[0] : undefined;
    if (name) packages.add(name);
  }
  assert.ok(packages.has("mcp-elicit"), `the probe saw ${entry} itself`);
  return packages;
}

test("mcp-elicit/client loads no terminal UI, browser opener, OpenAI library or YAML parser", async (t) => {
  const client = await packagesLoadedBy("mcp-elicit/client");
  t.diagnostic(`mcp-elicit/client loads: ${[...client].sort().join(", ")}`);
  assert.deepEqual(
    [...client].filter((name) => UI_ONLY.test(name)),
    [],
  );
  // The probe can see them: the entries that need them load them (`open` only when a URL is opened).
  const terminal = await packagesLoadedBy("mcp-elicit/terminal");
  for (const name of ["@inquirer/prompts", "@inquirer/core", "ora"]) assert.ok(terminal.has(name), `mcp-elicit/terminal loads ${name}`);
  assert.ok((await packagesLoadedBy("mcp-elicit/openai")).has("openai"), "mcp-elicit/openai loads openai");
  assert.ok((await packagesLoadedBy("mcp-elicit/scripted")).has("yaml"), "mcp-elicit/scripted loads yaml");
  const server = await packagesLoadedBy("mcp-elicit/server");
  t.diagnostic(`mcp-elicit/server loads: ${[...server].sort().join(", ")}`);
  assert.deepEqual(
    [...server].filter((name) => UI_ONLY.test(name)),
    [],
  );
});
