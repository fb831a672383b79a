// Runs test files again and again, one run at a time, and counts how each ended: the check that a
// fix for a flaky test holds. `node scripts/repeat.mjs 20 test/client/url-flow.test.ts [more files]`
// (each file N times in turn; under load: bash scripts/under-load.sh node scripts/repeat.mjs ...).
// A failed run's output is kept in a temp folder, named in the summary. Exits 1 if any run failed.
import { spawn } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [times, ...files] = process.argv.slice(2);
const n = Number(times);
if (!Number.isInteger(n) || n < 1 || files.length === 0) {
  console.error("usage: node scripts/repeat.mjs TIMES FILE.test.ts [FILE.test.ts...]");
  process.exit(2);
}
// Made on the first failure only, so a run that passes leaves nothing behind.
const logs = join(tmpdir(), `repeat-${process.pid}-${Date.now()}`);

function runOnce(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    const child = spawn("npx", ["tsx", "--test", "--test-timeout=300000", "--test-reporter=spec", file], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("close", (code) => resolve({ code, out, seconds: (Date.now() - started) / 1000 }));
  });
}

let failed = 0;
const lines = [];
for (const file of files) {
  const times = [];
  const failures = [];
  for (let i = 1; i <= n; i++) {
    const { code, out, seconds } = await runOnce(file);
    times.push(seconds);
    if (code !== 0) {
      mkdirSync(logs, { recursive: true });
      const log = join(logs, `${file.replaceAll("/", "_")}.${i}.log`);
      writeFileSync(log, out);
      failures.push(`run ${i}: exit ${code}, ${log}`);
    }
    console.log(`${file} run ${i}/${n}: ${code === 0 ? "pass" : "FAIL"} in ${seconds.toFixed(1)} s`);
  }
  failed += failures.length;
  const sorted = [...times].sort((a, b) => a - b);
  lines.push(
    `${file}: ${n - failures.length}/${n} passed; ${sorted[0].toFixed(1)}-${sorted.at(-1).toFixed(1)} s a run (median ${sorted[Math.floor(n / 2)].toFixed(1)})` +
      failures.map((f) => `\n  ${f}`).join(""),
  );
}
console.log(`\n${lines.join("\n")}`);
process.exit(failed ? 1 : 0);
