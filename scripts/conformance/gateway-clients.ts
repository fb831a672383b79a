// The client scenarios of the official MCP conformance suite with `elicit gateway` between `elicit` and
// each scenario's server (scripts/conformance/gateway-client.mjs is the client command), judged like the
// direct runs of scripts/conformance-clients.ts (same checks, same elicit-* checks of ours, same table).
// Called by scripts/conformance/gateway.sh:
//
//   node --import tsx scripts/conformance/gateway-clients.ts OUT VERSION=PATH/TO/conformance/dist/index.js ...
//
// Runs every client scenario but the sign-ins, at each revision it applies to, CONFORMANCE_JOBS (2) at a
// time; CONFORMANCE_GATEWAY_SCENARIOS (a regular expression) picks others. Of the sign-ins (auth/*) only
// auth/client-credentials-basic runs: through the gateway the gateway signs in, not `elicit`, and a
// person's sign-in would wait for consent in the gateway's page, where nobody is. Known failures in
// KNOWN_CLIENT_FAILURES. Writes OUT/client-table.md; exits 1 on an unexpected failure or a stale entry.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseClientScenarios, revisionsOf, table } from "../conformance-clients.js";
import { judge, parseKnown, report, type Check, type ScenarioRun } from "../conformance-verdict.js";

// CONFORMANCE_GATEWAY_DIRECT=1 runs the same scenarios without the gateway, to compare times.
const DIRECT = process.env.CONFORMANCE_GATEWAY_DIRECT === "1";
const WRAPPER = resolve(dirname(fileURLToPath(import.meta.url)), DIRECT ? "../conformance-client.mjs" : "gateway-client.mjs");

function exec(command: string, args: string[], logFile?: string, timeoutMs = 0): Promise<{ code: number | null; output: string }> {
  return new Promise((done) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = timeoutMs ? setTimeout(() => child.kill("SIGKILL"), timeoutMs) : undefined;
    child.on("close", (code) => {
      clearTimeout(timer);
      if (logFile) writeFileSync(logFile, output);
      done({ code, output });
    });
  });
}

function findChecks(dir: string): string | undefined {
  if (!existsSync(dir)) return undefined;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (entry === "checks.json") return path;
    if (statSync(path).isDirectory()) {
      const found = findChecks(path);
      if (found) return found;
    }
  }
  return undefined;
}

const ours = (id: string, failed: boolean, message: string): Check => ({
  id,
  status: failed ? "FAILURE" : "SUCCESS",
  ...(failed ? { errorMessage: message } : {}),
});

interface Job {
  version: string;
  cli: string;
  scenario: string;
  revision: string | undefined;
  dir: string;
}

/** One scenario run through the gateway: the suite's checks plus ours, as scripts/conformance-clients.ts judges them. */
async function runJob(job: Job, timeoutMs: number): Promise<ScenarioRun | undefined> {
  mkdirSync(job.dir, { recursive: true });
  const args = [job.cli, "client", "--command", `${process.execPath} ${WRAPPER}`, "--scenario", job.scenario, "-o", job.dir];
  args.push("--timeout", String(timeoutMs));
  if (job.revision) args.push("--spec-version", job.revision);
  const { code, output } = await exec(process.execPath, args, join(job.dir, "run.log"), timeoutMs + 60_000);
  const label = `${job.version} ${job.scenario} @${job.revision ?? "default"}`;
  if (/^SKIPPED: scenario/m.test(output)) return undefined;
  const file = findChecks(job.dir);
  if (!file)
    return {
      scenario: job.scenario,
      label,
      scored: true,
      checks: [ours("elicit-no-results", true, `the suite wrote no checks.json (exit ${code}); see ${join(job.dir, "run.log")}`)],
    };
  const checks = JSON.parse(readFileSync(file, "utf8")) as Check[];
  const stderr = existsSync(join(dirname(file), "stderr.txt")) ? readFileSync(join(dirname(file), "stderr.txt"), "utf8") : "";
  const exited = /CLIENT EXITED WITH ERROR \(code (-?\d+)\)/.exec(output);
  const unexpected = stderr.split("\n").filter((l) => l.startsWith("conformance-client: UNEXPECTED"));
  checks.push(
    ours("elicit-client-timeout", /CLIENT TIMED OUT/.test(output), `the client did not finish within ${timeoutMs} ms`),
    ours(
      "elicit-client-exit",
      exited !== null,
      `the client exited with code ${exited?.[1]}: ${stderr.trim().split("\n").slice(-3).join(" | ").slice(0, 300)}`,
    ),
    ours("elicit-dispatcher", unexpected.length > 0, unexpected.join("; ").slice(0, 300)),
  );
  return { scenario: job.scenario, label, scored: true, checks };
}

async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.max(1, jobs) }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

async function main() {
  const [out, ...versions] = process.argv.slice(2);
  if (!out || versions.length === 0 || versions.some((v) => !v.includes("="))) {
    console.error("usage: gateway-clients.ts OUT VERSION=PATH/TO/dist/index.js ...");
    process.exit(2);
  }
  const started = Date.now();
  const timeoutMs = Number(process.env.CONFORMANCE_CLIENT_TIMEOUT_MS ?? 120_000);
  const pick = new RegExp(process.env.CONFORMANCE_GATEWAY_SCENARIOS ?? "^(?!auth/)|^auth/client-credentials-basic$");
  const jobs: Job[] = [];
  for (const pair of versions) {
    const [version, cli] = pair.split("=") as [string, string];
    const scenarios = parseClientScenarios((await exec(process.execPath, [cli, "list"])).output);
    if (scenarios.length === 0) throw new Error(`conformance ${version} listed no client scenarios`);
    for (const s of scenarios.filter((s) => pick.test(s.name)))
      for (const revision of revisionsOf(s))
        jobs.push({
          version,
          cli,
          scenario: s.name,
          revision,
          dir: join(out, "client", version, `${s.name.replace(/\//g, "_")}@${revision ?? "default"}`),
        });
  }
  const parallel = Number(process.env.CONFORMANCE_JOBS ?? 2);
  console.error(`conformance clients ${DIRECT ? "without" : "through"} the gateway: ${jobs.length} scenario runs, ${parallel} at a time`);
  const runs = (await pool(jobs, parallel, (job) => runJob(job, timeoutMs))).filter((r): r is ScenarioRun => r !== undefined);
  const verdict = judge(runs, parseKnown(process.env.KNOWN_CLIENT_FAILURES ?? ""));
  writeFileSync(join(out, "client-table.md"), table(verdict.tallies) + "\n");
  const seconds = Math.round((Date.now() - started) / 1000);
  const summary = `${runs.length} scenario runs (${versions.map((v) => v.split("=")[0]).join(", ")}) in ${seconds} s; table in ${join(out, "client-table.md")}`;
  for (const line of report(
    "gateway: conformance client scenarios, elicit → elicit gateway → scenario server",
    verdict,
    summary,
    "scripts/conformance/gateway.sh (KNOWN_GATEWAY_CLIENT_FAILURES)",
  ))
    console.log(line);
  process.exit(verdict.ok ? 0 : 1);
}

await main();
