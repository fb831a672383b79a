// The layer rules of .dependency-cruiser.mjs (run by `npm run lint`) still catch what they are for: a scratch
// tree with an upward import, a server file importing ui/, client and server importing each other, a two-file
// circle and a library entry that reaches demo code is reported rule by rule, and a tree whose imports all point
// down is not. And every folder of src/ has a layer, so a new one is checked from its first file. The same for the
// rooms of the server wing (src/server/).
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { scratchFiles } from "../helpers/files.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const config = join(root, ".dependency-cruiser.mjs");
// The `depcruise` bin as the installed version names it (the file was renamed in version 18).
const depcruise = join(
  root,
  "node_modules/dependency-cruiser",
  (JSON.parse(readFileSync(join(root, "node_modules/dependency-cruiser/package.json"), "utf8")) as { bin: Record<string, string> }).bin
    .depcruise!,
);

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
}

/** A tree of `files` (path under src/ -> the modules it imports, as a source file writes them). */
function writeTree(dir: string, files: Record<string, string[]>): void {
  writeFileSync(join(dir, "tsconfig.json"), JSON.stringify({ compilerOptions: { module: "NodeNext", moduleResolution: "NodeNext" } }));
  for (const [path, imports] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, "src", path)), { recursive: true });
    const body =
      imports.map((spec, i) => `import { x as x${i} } from "${spec}";\nconsole.log(x${i});\n`).join("") + "export const x = 1;\n";
    writeFileSync(join(dir, "src", path), body);
  }
}

/** The repository's rules over `dir`'s src/, as `npm run lint` runs them: the violations, one "rule from -> to" a line. */
async function violations(dir: string): Promise<string[]> {
  // depcruise exits non-zero when it finds any; the JSON report is on stdout either way.
  const { stdout } = await promisify(execFile)(process.execPath, [depcruise, "src", "--config", config, "--output-type", "json"], {
    cwd: dir,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(stdout) as { summary: { violations: Violation[] } };
  return report.summary.violations.map((v) => `${v.rule.name} ${v.from} -> ${v.to}`).sort();
}

test("each broken import is reported by the rule it breaks", async () => {
  const { dir } = scratchFiles("layers-broken-");
  writeTree(dir, {
    "ui/widget.ts": [],
    // Upward: the schema language imports a renderer.
    "schema/upward.ts": ["../ui/widget.js"],
    // The server side imports renderer code.
    "server/http/page.ts": ["../../ui/widget.js"],
    // client and server stand side by side.
    "client/uses-server.ts": ["../server/http/page.js"],
    // A two-file circle.
    "common/one.ts": ["./two.js"],
    "common/two.ts": ["./one.js"],
    // A library entry that reaches demo code through a module of its own.
    "store/index.ts": ["./helper.js"],
    "store/helper.ts": ["../servers/demo.js"],
    "servers/demo.ts": [],
  });
  assert.deepEqual(await violations(dir), [
    "entries-no-demo src/store/index.ts -> src/servers/demo.ts",
    "layer-client src/client/uses-server.ts -> src/server/http/page.ts",
    "layer-schema src/schema/upward.ts -> src/ui/widget.ts",
    "layer-server src/server/http/page.ts -> src/ui/widget.ts",
    "layer-store src/store/helper.ts -> src/servers/demo.ts",
    "no-circular src/common/one.ts -> src/common/two.ts",
    "no-server-to-ui src/server/http/page.ts -> src/ui/widget.ts",
  ]);
});

test("imports that point down the layers pass", async () => {
  const { dir } = scratchFiles("layers-clean-");
  writeTree(dir, {
    "schema/index.ts": [],
    "common/text.ts": ["../schema/index.js"],
    "store/index.ts": ["../common/text.js"],
    "client/index.ts": ["../store/index.js", "../schema/index.js"],
    "server/index.ts": ["../store/index.js"],
    "oidc/index.ts": ["../server/index.js"],
    "servers/demo.ts": ["../server/index.js", "../oidc/index.js"],
    "ui/view.ts": ["../client/index.js", "../server/index.js"],
    "terminal/index.ts": ["../ui/view.js"],
    // The CLI ships the demo servers: it may import them.
    "cli/run.ts": ["../terminal/index.js", "../servers/demo.js"],
  });
  assert.deepEqual(await violations(dir), []);
});

test("every folder of src/ has a layer", async () => {
  const rules = ((await import(pathToFileURL(config).href)) as { default: { forbidden: Array<{ name: string }> } }).default.forbidden;
  const layers = new Set(rules.filter((r) => r.name.startsWith("layer-")).map((r) => r.name.slice("layer-".length)));
  const folders = readdirSync(join(root, "src"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  assert.deepEqual(
    folders.filter((folder) => !layers.has(folder)),
    [],
    "add each new folder of src/ to LAYERS in .dependency-cruiser.mjs",
  );
  // The demo folder the entry rule guards must still exist, or the rule would pass by guarding nothing.
  const demo = rules.find((r) => r.name === "entries-no-demo") as unknown as { to: { path: string } };
  assert.ok(
    folders.includes(/^\^src\/([^/]+)\//.exec(demo.to.path)![1]!),
    `entries-no-demo names a folder src/ no longer has: ${demo.to.path}`,
  );
});

test("each import that breaks the server wing's floor plan is reported by its room", async () => {
  const { dir } = scratchFiles("rooms-broken-");
  writeTree(dir, {
    "server/base/errors.ts": [],
    "server/http/session.ts": [],
    "server/live/call.ts": [],
    "server/rounds/ledger.ts": [],
    "server/inputs/delivery.ts": [],
    // The ground floor reaching up: base into a way of asking, the fleet into the serving entry (the old loop).
    "server/base/uses-rounds.ts": ["../rounds/ledger.js"],
    "server/fleet/sessions.ts": ["../http/session.js"],
    // The URL pages reaching the input ports above them.
    "server/url/flows.ts": ["../inputs/delivery.js"],
    // The two ways of asking stand side by side.
    "server/rounds/uses-live.ts": ["../live/call.js"],
    // The serving entry does not build kits.
    "server/http/serve.ts": ["../kit/elicitation.js"],
    "server/kit/elicitation.ts": ["../live/call.js"],
    // A module outside every room.
    "server/stray.ts": ["./base/errors.js"],
  });
  assert.deepEqual(await violations(dir), [
    "room-base src/server/base/uses-rounds.ts -> src/server/rounds/ledger.ts",
    "room-fleet src/server/fleet/sessions.ts -> src/server/http/session.ts",
    "room-http src/server/http/serve.ts -> src/server/kit/elicitation.ts",
    "room-rounds src/server/rounds/uses-live.ts -> src/server/live/call.ts",
    "room-url src/server/url/flows.ts -> src/server/inputs/delivery.ts",
    "server-rooms-only src/server/stray.ts -> src/server/base/errors.ts",
  ]);
});

test("imports that follow the server wing's floor plan pass", async () => {
  const { dir } = scratchFiles("rooms-clean-");
  writeTree(dir, {
    "server/base/errors.ts": [],
    "server/auth/gate.ts": ["../base/errors.js"],
    "server/fleet/sessions.ts": ["../base/errors.js"],
    "server/url/flows.ts": ["../auth/gate.js"],
    "server/inputs/delivery.ts": ["../url/flows.js"],
    "server/live/call.ts": ["../inputs/delivery.js"],
    "server/rounds/call.ts": ["../inputs/delivery.js"],
    "server/tasks/tasks.ts": ["../rounds/call.js"],
    "server/kit/elicitation.ts": ["../live/call.js", "../tasks/tasks.js", "../fleet/sessions.js"],
    "server/http/serve.ts": ["../fleet/sessions.js", "../url/flows.js"],
    "server/index.ts": ["./kit/elicitation.js", "./http/serve.js"],
  });
  assert.deepEqual(await violations(dir), []);
});

test("every folder of src/server/ has a room", async () => {
  const rules = ((await import(pathToFileURL(config).href)) as { default: { forbidden: Array<{ name: string }> } }).default.forbidden;
  const rooms = new Set(rules.filter((r) => r.name.startsWith("room-")).map((r) => r.name.slice("room-".length)));
  const entries = readdirSync(join(root, "src/server"), { withFileTypes: true });
  assert.deepEqual(
    entries.filter((entry) => entry.isDirectory() && !rooms.has(entry.name)).map((entry) => entry.name),
    [],
    "add each new folder of src/server/ to SERVER_ROOMS in .dependency-cruiser.mjs",
  );
  assert.deepEqual(
    entries.filter((entry) => entry.isFile()).map((entry) => entry.name),
    ["index.ts"],
    "a module of src/server/ belongs in a room",
  );
});
