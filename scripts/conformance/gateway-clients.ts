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
import { writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { exec, parseClientScenarios, pool, revisionsOf, runJob, table, type Job } from "../conformance-clients.js";
import { judge, parseKnown, report, type ScenarioRun } from "../conformance-verdict.js";

// CONFORMANCE_GATEWAY_DIRECT=1 runs the same scenarios without the gateway, to compare times.
const DIRECT = process.env.CONFORMANCE_GATEWAY_DIRECT === "1";
const WRAPPER = resolve(dirname(fileURLToPath(import.meta.url)), DIRECT ? "../conformance-client.mjs" : "gateway-client.mjs");

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
  const runs = (await pool(jobs, parallel, (job) => runJob(job, timeoutMs, WRAPPER))).filter((r): r is ScenarioRun => r !== undefined);
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
