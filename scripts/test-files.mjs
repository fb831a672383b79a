// The test files of one group, one path a line, for the npm scripts: `node scripts/test-files.mjs unit`.
// `node scripts/test-files.mjs --list` prints every file with its group and why.
//
// A file's group is the first that matches, from what the file itself says (its path, and what it
// imports or starts), so a new file lands in a group without being listed anywhere:
//   load     test/fleet/load*.test.ts: 200 sessions in npm test, 1,000 in npm run test:load
//   fleet    the rest of test/fleet/, and files that start redis-server or HAProxy
//   browser  test/web/, and files that drive Chromium (needs("chromium"), launchChromium, the page helpers)
//   fuzz     test/fuzz/ and *.property.test.ts: thousands of generated cases each (npm run fuzz: 100,000)
//   process  files that start other programs: the built `elicit` bin (runCli, a pty), a forked or spawned
//            server or fixture; and test/cli/, test/peers/, test/package/, test/docs/
//   unit     everything else: Node alone, in-process (memory and loopback HTTP transports)
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

const RULES = [
  ["load", (path) => /^test\/fleet\/load[^/]*\.test\.ts$/.test(path) && "a load test"],
  [
    "fleet",
    (path, text) =>
      (path.startsWith("test/fleet/") && "test/fleet/") ||
      (/needs\([^)]*"(redis-server|haproxy)"|startRedis\(|startHaproxy\(|startFleet\(/.test(text) && "redis-server or HAProxy"),
  ],
  [
    "browser",
    (path, text) =>
      (path.startsWith("test/web/") && "test/web/") ||
      (/needs\([^)]*"chromium"|launchChromium|playwright-core|url-pages-helpers\.js|webui-helpers\.js/.test(text) && "Chromium"),
  ],
  ["fuzz", (path) => (path.startsWith("test/fuzz/") && "test/fuzz/") || (path.endsWith(".property.test.ts") && "generated cases")],
  [
    "process",
    (path, text) =>
      (/^test\/(cli|peers|package|docs)\//.test(path) && path.split("/").slice(0, 2).join("/") + "/") ||
      (/\b(spawn|fork|execFile|spawnSync|execFileSync)\(|helpers\/cli\.js|helpers\/pty\.js/.test(text) && "starts a program"),
  ],
  ["unit", () => "Node alone"],
];

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

const [arg] = process.argv.slice(2);
const groups = RULES.map(([group]) => group);
if (arg === "--list") {
  for (const path of testFiles()) {
    const { group, why } = classify(path);
    console.log(`${group.padEnd(8)} ${path}  (${why})`);
  }
} else if (groups.includes(arg)) {
  const files = testFiles().filter((path) => classify(path).group === arg);
  // An empty list would make the runner look for tests everywhere: say so instead.
  if (files.length === 0) throw new Error(`no test files in group ${arg}`);
  console.log(files.join("\n"));
} else {
  console.error(`usage: node scripts/test-files.mjs ${groups.join("|")}|--list`);
  process.exit(2);
}
