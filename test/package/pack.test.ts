// The package as a user gets it: `npm pack`, then `npm install <tarball>` into a scratch project (the SDK
// and zod come in as peers, installed by npm itself), then every entry point imported and type-checked,
// `npx elicit` run, and the module graph of `mcp-elicit/client` checked for the terminal UI and model
// libraries it must not load. Needs the npm registry (or npm's cache); takes 30-60 s.
//
// The tarball is packed from a staging folder (package.json, README.md and a fresh build of src/ into its
// dist/), not from the repo, so that this test neither packs a stale dist/ nor rewrites the dist/ that other
// test files are running at the same time; `files` and `exports` are the repo's own package.json.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { buildWeb } from "../../scripts/build-web.mjs";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as {
  exports: Record<string, unknown>;
  peerDependencies: Record<string, string>;
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
    "ZodConversionError",
    "checkSchema",
    "validateContent",
    "applyDefaults",
    "describeFields",
    "encodeForRevision",
    "SCHEMA_RULES",
  ],
  server: [
    "createElicitation",
    "serveHttp",
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
  store: ["memoryStore", "sqliteStore"],
  oidc: ["startOpenIdProvider", "DEFAULT_USERS", "DEFAULT_RESOURCE_SCOPES"],
  web: ["webUI", "elementsBundlePath", "DEFAULT_DISCONNECT_GRACE_MS"],
};

/** Browser bundles: exported for hosts to serve, not to import in Node. Export -> the file it points at. */
const BUNDLES: Record<string, string> = { "web/elements": "dist/web/elements.js" };

/** Packages only the renderers and the model provider may load. */
const UI_ONLY = /^(?:@inquirer\/.+|ora|open|openai|yaml)$/;

let dir: string;
let app: string;
let packed: { filename: string; files: { path: string }[] };

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
  const stage = join(dir, "pkg");
  mkdirSync(stage);
  for (const file of ["package.json", "README.md", "LICENSE", "CHANGELOG.md"])
    if (existsSync(join(root, file))) copyFileSync(join(root, file), join(stage, file));
  await run(process.execPath, [TSC, "-p", join(root, "tsconfig.build.json"), "--outDir", join(stage, "dist")], root);
  chmodSync(join(stage, "dist", "cli", "main.js"), 0o755);
  // The browser bundles, as `npm run build` makes them.
  await buildWeb({ outdir: join(stage, "dist", "web") });
  const { stdout } = await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], stage);
  packed = (JSON.parse(stdout) as (typeof packed)[])[0]!;

  app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "scratch", private: true, type: "module" }));
  await run("npm", ["install", join(dir, packed.filename), "--prefer-offline", "--no-audit", "--no-fund"], app, 100_000);
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("the tarball holds package.json, README.md, LICENSE, CHANGELOG.md and dist/: no sources, tests or source maps", () => {
  const paths = packed.files.map((f) => f.path);
  for (const p of paths) assert.match(p, /^(?:package\.json|README\.md|LICENSE|CHANGELOG\.md|dist\/.+\.(?:js|d\.ts))$/, p);
  for (const file of ["LICENSE", "CHANGELOG.md"]) assert.ok(paths.includes(file), file);
  assert.ok(paths.includes("dist/cli/main.js"), "the elicit bin");
  for (const entry of Object.keys(ENTRIES)) {
    assert.ok(pkg.exports[`./${entry}`], `package.json exports ./${entry}`);
    assert.ok(paths.includes(`dist/${entry}/index.js`) && paths.includes(`dist/${entry}/index.d.ts`), entry);
  }
  assert.deepEqual(
    Object.keys(pkg.exports).sort(),
    [...[...Object.keys(ENTRIES), ...Object.keys(BUNDLES)].map((e) => `./${e}`), "./package.json"].sort(),
    "every export is tested here",
  );
  for (const [entry, file] of Object.entries(BUNDLES)) {
    assert.equal((pkg.exports[`./${entry}`] as { import?: string }).import, `./${file}`, entry);
    assert.ok(paths.includes(file), file);
  }
  assert.ok(paths.includes("dist/web/page.js"), "the page webUI serves");
});

test("one install gets the peers: the MCP SDK packages and zod, at versions in the peer ranges", () => {
  const installed = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  assert.deepEqual(Object.keys(installed.dependencies), ["mcp-elicit"]);
  for (const name of ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/node", "zod"]) {
    const file = join(app, "node_modules", name, "package.json");
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

test("every entry point loads, with named exports only", async () => {
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
import { createElicitation, type ElicitationOptions, type ElicitOptions, type HttpAuthOptions, type Principal, type ServeHttpOptions, type ServerFactory } from "mcp-elicit/server";
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
void [terminal, kit, answers, oidc, web, elementsBundlePath(), {} as TextOptions, {} as ElicitOptions, {} as ServeHttpOptions, {} as HttpAuthOptions, {} as Principal, {} as ServerFactory, {} as SqliteStoreOptions];
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

test("npx elicit works in the scratch project: --help, and a call to the travel server with an answers file", async () => {
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
  // The probe can see them: the entries that need them load them.
  const terminal = await packagesLoadedBy("mcp-elicit/terminal");
  for (const name of ["@inquirer/prompts", "@inquirer/core", "ora", "open"])
    assert.ok(terminal.has(name), `mcp-elicit/terminal loads ${name}`);
  assert.ok((await packagesLoadedBy("mcp-elicit/openai")).has("openai"), "mcp-elicit/openai loads openai");
  assert.ok((await packagesLoadedBy("mcp-elicit/scripted")).has("yaml"), "mcp-elicit/scripted loads yaml");
  const server = await packagesLoadedBy("mcp-elicit/server");
  t.diagnostic(`mcp-elicit/server loads: ${[...server].sort().join(", ")}`);
  assert.deepEqual(
    [...server].filter((name) => UI_ONLY.test(name)),
    [],
  );
});
