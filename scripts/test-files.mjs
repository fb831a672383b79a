// The test files of one group, one path a line, for the npm scripts: `node scripts/test-files.mjs unit`.
// `node scripts/test-files.mjs --list` prints every file with its group and why; `--all` prints every file in
// the order npm test runs them (below).
//
// A file's group is the first that matches, from what the file itself says (its path, and what it
// imports or starts), so a new file lands in a group without being listed anywhere:
//   load     test/fleet/load*.test.ts: 200 sessions in npm test, 1,000 in npm run test:load
//   fleet    the rest of test/fleet/, and files that start redis-server or HAProxy
//   browser  test/web/, and files that drive Chromium (needs("chromium"), launchChromium, the page helpers)
//   fuzz     test/fuzz/ and *.property.test.ts: thousands of generated cases each (npm run fuzz: 100,000)
//   process  files that start other programs: the built `elicit` bin (runCli, a pty), a forked or spawned
//            server or fixture; and test/cli/, test/peers/, test/package/, test/docs/, test/deploy/ (workerd, Deno, Bun)
//   unit     everything else: Node alone, in-process (memory and loopback HTTP transports)
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const RULES = [
  ["load", (path) => /^test\/fleet\/load[^/]*\.test\.ts$/.test(path) && "a load test"],
  [
    "fleet",
    (path, text) =>
      (path.startsWith("test/fleet/") && "test/fleet/") ||
      (/needs\([^)]*"(redis-server|haproxy)"|startRedis\(|redisMembers\(|startHaproxy\(|startFleet\(/.test(text) &&
        "redis-server or HAProxy"),
  ],
  [
    "browser",
    (path, text) =>
      (path.startsWith("test/web/") && "test/web/") ||
      (/needs\([^)]*"chromium"|launchChromium|playwright-core|helpers\/(url-pages|webui|web-pages|chromium)\.js/.test(text) && "Chromium"),
  ],
  ["fuzz", (path) => (path.startsWith("test/fuzz/") && "test/fuzz/") || (path.endsWith(".property.test.ts") && "generated cases")],
  [
    "process",
    (path, text) =>
      (/^test\/(cli|peers|package|docs|deploy)\//.test(path) && path.split("/").slice(0, 2).join("/") + "/") ||
      (/\b(spawn|fork|execFile|spawnSync|execFileSync)\(|helpers\/cli\.js|helpers\/pty\.js/.test(text) && "starts a program"),
  ],
  ["unit", () => "Node alone"],
];

// npm test runs every file, three at a time, taking them in the order given: the longest first, so that none
// of them starts late and runs on alone at the end while the other workers have nothing left to do. SLOWEST:
// the files that took longest in a quiet CI run (seconds, Node 22, three at a time; rounded). The other
// files follow by group, the groups that start programs before the in-process ones, each group sorted.
const SLOWEST = {
  "test/cli/call.test.ts": 115,
  "test/ui/terminal.test.ts": 110,
  "test/gateway/hosts.test.ts": 100,
  "test/package/registry.test.ts": 140,
  "test/package/consumer-types.test.ts": 120,
  "test/package/pack.test.ts": 95,
  "test/peers/server-everything.test.ts": 90,
  "test/docs/examples.test.ts": 75,
  "test/fleet/rounds.test.ts": 65,
  "test/web/app-travel.test.ts": 80,
  "test/web/inspector-app-elicitation.test.ts": 80,
  "test/web/form.test.ts": 60,
  "test/cli/oauth-cli.test.ts": 60,
  "test/gateway/fidelity.test.ts": 30,
  "test/cli/demo-answers.test.ts": 55,
  "test/cli/connect-pty.test.ts": 55,
  "test/server/http/sessions.test.ts": 50,
  "test/cli/restart-under-retry.test.ts": 45,
  "test/fleet/load-sessions.test.ts": 45,
  "test/web/webui.test.ts": 40,
  "test/cli/connect-web.test.ts": 40,
  "test/cli/demo-no-browser.test.ts": 40,
  "test/fleet/load.test.ts": 35,
  "test/server/url/pages/refusals.test.ts": 30,
  "test/cli/call-web.test.ts": 30,
  "test/cli/tasks.test.ts": 30,
  "test/web/url-consent.test.ts": 30,
  "test/cli/machine-sign-in.test.ts": 30,
  "test/cli/demo-pty.test.ts": 30,
  "test/web/sampling-review.test.ts": 25,
  "test/web/webui-flows.test.ts": 25,
  "test/server/url/pages/pages.test.ts": 25,
};
const GROUP_ORDER = ["load", "fleet", "browser", "process", "fuzz", "unit"];

function testFiles(dir = join(root, "test")) {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((e) => (e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith(".test.ts") ? [join(dir, e.name)] : []))
    .map((file) => relative(root, file))
    .sort();
}

function classify(path) {
  const text = readFileSync(join(root, path), "utf8");
  for (const [group, rule] of RULES) {
    const why = rule(path, text);
    if (why) return { group, why };
  }
  throw new Error(`unreachable: ${path}`);
}

// The unit files run in a few shared processes (shards) instead of one each: in their own processes, about
// half of their CPU went to loading modules (tsx, the SDK, zod, ours) again for every file. A shard imports
// its files in turn, so their tests run one after another in one process, each with its own timeout; the
// shards run beside the other files. Files are dealt by size, the largest first, to the lightest shard.
// TEST_SHARDS=0 gives every unit file its own process again (to rule out one file disturbing another).
function shards(files) {
  const count = Number(process.env.TEST_SHARDS ?? 4);
  if (!Number.isInteger(count) || count < 0)
    throw new Error(`TEST_SHARDS must be a whole number (0: no shards), not ${process.env.TEST_SHARDS}`);
  if (count === 0) return files;
  const dir = join(root, ".test-shards"); // not under node_modules: the test runner skips paths there
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const bins = Array.from({ length: Math.min(count, files.length) }, () => ({ size: 0, files: [] }));
  const sized = files.map((path) => ({ path, size: statSync(join(root, path)).size })).sort((a, b) => b.size - a.size);
  for (const { path, size } of sized) {
    const lightest = bins.reduce((a, b) => (b.size < a.size ? b : a));
    lightest.size += size;
    lightest.files.push(path);
  }
  return bins.map((bin, i) => {
    const shard = join(dir, `unit-${i + 1}.test.mjs`);
    const lines = bin.files.sort().map((path) => `import ${JSON.stringify(pathToFileURL(join(root, path)).href)};`);
    writeFileSync(shard, `// Written by scripts/test-files.mjs: unit test files that share one process.\n${lines.join("\n")}\n`);
    return relative(root, shard);
  });
}

const [arg, option] = process.argv.slice(2);
const groups = RULES.map(([group]) => group);
if (arg === "--all") {
  const rank = (path) => SLOWEST[path] ?? -GROUP_ORDER.indexOf(classify(path).group) - 1;
  const files = testFiles();
  for (const path of Object.keys(SLOWEST)) if (!files.includes(path)) throw new Error(`SLOWEST names ${path}, which is gone`);
  const unit = files.filter((path) => !(path in SLOWEST) && classify(path).group === "unit");
  const rest = files.filter((path) => !unit.includes(path));
  // A shard runs its files one after another, mostly waiting, for about as long as the longest files: the
  // shards are spread among them (ranked 100, 80, 60, 40 s) so that they never hold all three workers at
  // once while the CPU-heavy files wait.
  // (With TEST_SHARDS=0 the unit files keep their group's place.)
  const spread = (path, i) => ({ path, rank: path.startsWith(".test-shards/") ? 100 - 20 * i : rank(path) });
  const ordered = [...shards(unit).map(spread), ...rest.map((path) => ({ path, rank: rank(path) }))];
  // Array.prototype.sort is stable: within a group the files stay in path order.
  console.log(
    ordered
      .sort((a, b) => b.rank - a.rank)
      .map(({ path }) => path)
      .join("\n"),
  );
} else if (arg === "--list") {
  for (const path of testFiles()) {
    const { group, why } = classify(path);
    console.log(`${group.padEnd(8)} ${path}  (${why})`);
  }
} else if (groups.includes(arg)) {
  const files = testFiles().filter((path) => classify(path).group === arg);
  // An empty list would make the runner look for tests everywhere: say so instead.
  if (files.length === 0) throw new Error(`no test files in group ${arg}`);
  console.log((arg === "unit" && option !== "--files" ? shards(files) : files).join("\n"));
} else {
  console.error(`usage: node scripts/test-files.mjs ${groups.join("|")} [--files]|--list|--all`);
  process.exit(2);
}
