// Runs every client scenario of the official MCP conformance suite, in each given version, with
// `elicit` as the client (through scripts/conformance-client.mjs), and judges them together with
// scripts/conformance-verdict.ts. Called by scripts/conformance.sh:
//
//   node --import tsx scripts/conformance-clients.ts OUT VERSION=PATH/TO/conformance/dist/index.js ...
//
// Each scenario runs once per protocol revision it applies to among 2025-11-25 and 2026-07-28 (the
// suite's --spec-version; scenarios tied to neither, such as extensions, run at the suite's default),
// two at a time (CONFORMANCE_JOBS). On top of the suite's checks, a run gets three of ours, so that
// the verdict sees what the suite's summary would: `elicit-client-timeout`, `elicit-client-exit` (the
// client failed where the scenario does not allow it) and `elicit-dispatcher` (an `elicit` step ended
// with another exit code than its plan says, which the suite cannot see where it tolerates client
// errors). They decide the verdict; the table counts only the suite's own checks.
// KNOWN_CLIENT_FAILURES holds the known failures (see conformance-verdict.ts). Writes OUT/client-table.md
// (scenario, suite version, revision, checks passed) and exits 1 on any unexpected failure or stale entry.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { judge, parseKnown, report, type Check, type ScenarioRun } from "./conformance-verdict.js";

const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
const DISPATCHER = resolve(dirname(fileURLToPath(import.meta.url)), "conformance-client.mjs");

export interface ListedScenario {
  name: string;
  tags: string[];
}

/** The client scenarios of `conformance list`: "  - name [tag,tag]" lines under "Client scenarios". */
export function parseClientScenarios(listing: string): ListedScenario[] {
  const section = listing.split(/^Client scenarios.*$/m)[1]?.split(/^\S.*$/m)[0] ?? "";
  return [...section.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?\s*$/gm)].map((m) => ({
    name: m[1]!,
    tags: (m[2] ?? "")
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean),
  }));
}

/** The revisions a scenario runs at: those of REVISIONS it applies to, else the suite's default (undefined). */
export function revisionsOf(s: ListedScenario): (string | undefined)[] {
  const mine = REVISIONS.filter((r) => s.tags.includes(r));
  return mine.length > 0 ? mine : [undefined];
}

export interface Job {
  version: string;
  cli: string;
  scenario: string;
  revision: string | undefined;
  dir: string;
}

export function exec(command: string, args: string[], logFile?: string, timeoutMs = 0): Promise<{ code: number | null; output: string }> {
  return new Promise((resolveRun) => {
    const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0" } });
    let output = "";
    child.stdout.on("data", (d) => (output += d));
    child.stderr.on("data", (d) => (output += d));
    const timer = timeoutMs ? setTimeout(() => child.kill("SIGKILL"), timeoutMs) : undefined;
    child.on("close", (code) => {
      clearTimeout(timer);
      if (logFile) writeFileSync(logFile, output);
      resolveRun({ code, output });
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

/**
 * One scenario run, with `client` (a script node runs) as the suite's client command: the suite's checks
 * plus ours; undefined when the suite skipped the scenario.
 */
export async function runJob(job: Job, timeoutMs: number, client = DISPATCHER): Promise<ScenarioRun | undefined> {
  mkdirSync(job.dir, { recursive: true });
  const args = [
    job.cli,
    "client",
    "--command",
    `${process.execPath} ${client}`,
    "--scenario",
    job.scenario,
    "-o",
    job.dir,
    "--timeout",
    String(timeoutMs),
  ];
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

export async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
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

/**
 * The docs/conformance.md table: one row per run, with the suite's checks that passed out of those that passed or
 * failed (not the runner's elicit-* checks). Scenario families (`auth/…`) get one row per suite version.
 */
export function table(runs: { run: ScenarioRun; known: string[] }[]): string {
  const rows = new Map<
    string,
    {
      scenario: string;
      version: string;
      at: string;
      runs: number;
      names: Set<string>;
      passed: number;
      failed: number;
      warnings: number;
      skipped: number;
      known: Set<string>;
    }
  >();
  for (const { run, known } of runs) {
    const [version, scenario, at] = run.label.split(" ") as [string, string, string];
    const family = scenario.includes("/") ? `${scenario.slice(0, scenario.indexOf("/"))}/*` : undefined;
    const key = family ? `${family} ${version}` : run.label;
    const row = rows.get(key) ?? {
      scenario: family ?? scenario,
      version,
      at: family ? "all" : at.slice(1),
      runs: 0,
      names: new Set(),
      passed: 0,
      failed: 0,
      warnings: 0,
      skipped: 0,
      known: new Set(),
    };
    const suite = run.checks.filter((c) => !c.id.startsWith("elicit-"));
    const count = (status: string) => suite.filter((c) => c.status === status).length;
    row.runs++;
    row.names.add(scenario);
    row.passed += count("SUCCESS");
    row.failed += count("FAILURE");
    row.warnings += count("WARNING");
    row.skipped += count("SKIPPED");
    known.forEach((k) => row.known.add(k));
    rows.set(key, row);
  }
  const lines = [...rows.values()].map((r) => {
    const extra = [r.warnings ? `${r.warnings} warning(s)` : "", r.skipped ? `${r.skipped} skipped` : ""].filter(Boolean).join(", ");
    const note = r.known.size
      ? [...r.known].join("; ")
      : r.passed + r.failed === 0 && r.skipped > 0
        ? "every check skipped: nothing the scenario tests was exercised"
        : "";
    const name = r.scenario.endsWith("/*") ? `\`${r.scenario}\` (${r.names.size} scenarios, ${r.runs} runs)` : `\`${r.scenario}\``;
    return `| ${name} | ${r.version} | ${r.at} | ${r.passed}/${r.passed + r.failed}${extra ? ` (${extra})` : ""} | ${note} |`;
  });
  return ["| scenario | suite | revision | checks passed | known failure, rule |", "| --- | --- | --- | --- | --- |", ...lines.sort()].join(
    "\n",
  );
}

async function main() {
  const [out, ...versions] = process.argv.slice(2);
  if (!out || versions.length === 0 || versions.some((v) => !v.includes("="))) {
    console.error("usage: conformance-clients.ts OUT VERSION=PATH/TO/dist/index.js ...");
    process.exit(2);
  }
  const started = Date.now();
  const timeoutMs = Number(process.env.CONFORMANCE_CLIENT_TIMEOUT_MS ?? 120_000);
  const jobs: Job[] = [];
  for (const pair of versions) {
    const [version, cli] = pair.split("=") as [string, string];
    const listing = await exec(process.execPath, [cli, "list"]);
    const scenarios = parseClientScenarios(listing.output);
    if (scenarios.length === 0) throw new Error(`conformance ${version} listed no client scenarios:\n${listing.output.slice(0, 2000)}`);
    for (const s of scenarios) {
      for (const revision of revisionsOf(s)) {
        jobs.push({
          version,
          cli,
          scenario: s.name,
          revision,
          dir: join(out, "client", version, `${s.name.replace(/\//g, "_")}@${revision ?? "default"}`),
        });
      }
    }
  }
  console.error(`conformance clients: ${jobs.length} scenario runs, ${process.env.CONFORMANCE_JOBS ?? 2} at a time`);
  const runs = (await pool(jobs, Number(process.env.CONFORMANCE_JOBS ?? 2), (job) => runJob(job, timeoutMs))).filter(
    (r): r is ScenarioRun => r !== undefined,
  );
  const verdict = judge(runs, parseKnown(process.env.KNOWN_CLIENT_FAILURES ?? ""));
  writeFileSync(join(out, "client-table.md"), table(verdict.tallies) + "\n");
  const seconds = Math.round((Date.now() - started) / 1000);
  const summary = `${runs.length} scenario runs (${versions.map((v) => v.split("=")[0]).join(", ")}) in ${seconds} s; table in ${join(out, "client-table.md")}`;
  for (const line of report(
    "conformance client scenarios, elicit as the client",
    verdict,
    summary,
    "scripts/conformance.sh (KNOWN_CLIENT_FAILURES)",
  ))
    console.log(line);
  process.exit(verdict.ok ? 0 : 1);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
