// npm test's checks before the tests: `npm run typecheck`, `npm run lint` and `npm run format:check`, all
// three at once (each is one process on one core; one after another they took about 90 s on the 2-core
// machine). Each one's output is printed whole when all have ended, in that order; exits 1 if any failed.
import { spawn } from "node:child_process";

const SCRIPTS = ["typecheck", "lint", "format:check"];
// Through the npm that runs us when there is one (npm_execpath), else the npm on PATH.
const npm = process.env.npm_execpath;

const runs = SCRIPTS.map(
  (script) =>
    new Promise((resolve) => {
      const child = npm
        ? spawn(process.execPath, [npm, "run", script], { stdio: ["ignore", "pipe", "pipe"] })
        : spawn("npm", ["run", script], { stdio: ["ignore", "pipe", "pipe"] });
      let output = "";
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      child.on("error", (error) => resolve({ script, code: 1, output: `${output}${error.message}\n` }));
      child.on("close", (code, signal) => resolve({ script, code: code ?? (signal ? 1 : 0), output }));
    }),
);

const failed = [];
for (const { script, code, output } of await Promise.all(runs)) {
  process.stdout.write(output);
  if (code !== 0) failed.push(`npm run ${script} (exit ${code})`);
}
if (failed.length > 0) {
  console.error(`checks: failed: ${failed.join(", ")}`);
  process.exit(1);
}
