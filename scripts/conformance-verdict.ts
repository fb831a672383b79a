// The verdict on a run of the official MCP conformance suite (@modelcontextprotocol/conformance),
// shared by the server part (`elicit serve conformance` under test) and the client part (`elicit` as
// the client) of scripts/conformance.sh. Tested by test/conformance/verdict.test.ts.
//
// The rule, per check of a scored scenario: FAILURE fails the run unless a KNOWN entry covers it;
// WARNING (a SHOULD) is counted, not failed; SUCCESS, INFO and SKIPPED pass. A KNOWN entry that
// covers checks of this run of which none failed is stale: it fails the run until it is removed, so
// the list cannot hide a fixed gap. Scenarios the suite marks "not scored" are reported only.
//
// CLI (the server part): node --import tsx scripts/conformance-verdict.ts server LABEL LOG RESULTS EXIT
// with the known failures in $KNOWN_FAILURES; prints one verdict line (and the failures), exits 0 or 1.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export type Status = "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";

export interface Check {
  id: string;
  status: Status;
  name?: string;
  errorMessage?: string;
}

/** One scenario as run once: its checks, and whether the suite scores it. */
export interface ScenarioRun {
  scenario: string;
  /** How the run reads in the report, e.g. "0.2.0-alpha.12 tools_call @2026-07-28". */
  label: string;
  checks: Check[];
  scored: boolean;
}

/** A KNOWN entry: `scenario:check-id  reason`, where either part may use `*` as a wildcard. */
export interface KnownEntry {
  pattern: string;
  reason: string;
  matches(scenario: string, checkId: string): boolean;
}

const glob = (pattern: string) =>
  new RegExp(
    `^${pattern
      .split("*")
      .map((p) => p.replace(/[.+?^${}()|[\]\\/]/g, "\\$&"))
      .join(".*")}$`,
  );

/** Parses the KNOWN list: one entry a line, `#` comments and blank lines ignored; every entry needs a reason. */
export function parseKnown(text: string): KnownEntry[] {
  const entries: KnownEntry[] = [];
  for (const [index, raw] of text.split("\n").entries()) {
    const line = raw.replace(/(^|\s)#.*$/, "").trim();
    if (!line) continue;
    const [pattern, ...why] = line.split(/\s+/);
    const colon = pattern!.lastIndexOf(":");
    if (colon <= 0 || colon === pattern!.length - 1) throw new Error(`KNOWN line ${index + 1}: "${pattern}" is not scenario:check-id`);
    if (why.length === 0) throw new Error(`KNOWN line ${index + 1}: "${pattern}" has no reason; say which rule keeps it from passing`);
    const scenario = glob(pattern!.slice(0, colon));
    const check = glob(pattern!.slice(colon + 1));
    entries.push({ pattern: pattern!, reason: why.join(" "), matches: (s, c) => scenario.test(s) && check.test(c) });
  }
  return entries;
}

export interface RunTally {
  run: ScenarioRun;
  passed: number;
  failed: number;
  warnings: number;
  skipped: number;
  /** The reasons of the KNOWN entries that covered this run's failures. */
  known: string[];
}

export interface Verdict {
  ok: boolean;
  passed: number;
  failed: number;
  warnings: number;
  /** "scenario:check: message" for each failure no KNOWN entry covers. */
  unexpected: string[];
  /** The same, for failures a KNOWN entry covers. */
  known: string[];
  /** KNOWN entries that covered checks of this run, none of which failed. */
  stale: string[];
  /** Scored runs, one tally each; not-scored runs with a failure, by label. */
  tallies: RunTally[];
  unscoredFailing: string[];
}

/** Judges a set of runs against the KNOWN list (see the rule at the top). */
export function judge(runs: ScenarioRun[], known: KnownEntry[]): Verdict {
  const v: Verdict = {
    ok: false,
    passed: 0,
    failed: 0,
    warnings: 0,
    unexpected: [],
    known: [],
    stale: [],
    tallies: [],
    unscoredFailing: [],
  };
  const covered = new Map<KnownEntry, { checks: number; failures: number }>();
  for (const run of runs) {
    if (!run.scored) {
      if (run.checks.some((c) => c.status === "FAILURE")) v.unscoredFailing.push(run.label);
      continue;
    }
    const tally: RunTally = { run, passed: 0, failed: 0, warnings: 0, skipped: 0, known: [] };
    for (const check of run.checks) {
      const entry = known.find((k) => k.matches(run.scenario, check.id));
      if (entry) {
        const c = covered.get(entry) ?? { checks: 0, failures: 0 };
        c.checks++;
        if (check.status === "FAILURE") c.failures++;
        covered.set(entry, c);
      }
      if (check.status === "SUCCESS") tally.passed++;
      else if (check.status === "WARNING") tally.warnings++;
      else if (check.status === "SKIPPED") tally.skipped++;
      else if (check.status === "FAILURE") {
        tally.failed++;
        const line =
          `${run.label}: ${check.id}${check.name && check.name !== check.id ? ` (${check.name})` : ""}: ${check.errorMessage ?? ""}`.slice(
            0,
            300,
          );
        if (entry) {
          v.known.push(`${line} [known: ${entry.reason}]`);
          if (!tally.known.includes(entry.reason)) tally.known.push(entry.reason);
        } else v.unexpected.push(line);
      }
    }
    v.passed += tally.passed;
    v.failed += tally.failed;
    v.warnings += tally.warnings;
    v.tallies.push(tally);
  }
  for (const [entry, c] of covered) if (c.checks > 0 && c.failures === 0) v.stale.push(entry.pattern);
  v.ok = v.tallies.length > 0 && v.unexpected.length === 0 && v.stale.length === 0;
  return v;
}

/** The lines a verdict prints: the summary line, then each unexpected failure, known failure and stale entry. */
export function report(label: string, v: Verdict, summary: string, where: string): string[] {
  const extra = [`scored: ${v.passed} passed, ${v.failed} failed, ${v.warnings} warning(s)`];
  if (v.known.length) extra.push(`${v.known.length} known failure(s)`);
  if (v.unscoredFailing.length) extra.push(`not scored and failing: ${v.unscoredFailing.join(", ")}`);
  // Known failures by reason, with a count: an entry like auth/*:* covers many checks.
  const byReason = new Map<string, string[]>();
  for (const f of v.known) {
    const reason = /\[known: (.*)\]$/.exec(f)?.[1] ?? "";
    byReason.set(reason, [...(byReason.get(reason) ?? []), f]);
  }
  return [
    `${v.ok ? "PASS" : "FAIL"}  ${label}: ${summary} [${extra.join("; ")}]`,
    ...v.unexpected.map((f) => `      ✗ ${f}`),
    ...[...byReason].flatMap(([reason, fs]) =>
      fs.length <= 3
        ? fs.map((f) => `      ~ ${f}`)
        : [`      ~ ${fs.length} known failures: ${reason} (e.g. ${fs[0]!.replace(/ \[known: .*\]$/, "")})`],
    ),
    ...v.stale.map((s) => `      ! ${s} passes now: remove it from the KNOWN list in ${where}`),
  ];
}

/** A server suite's results: `server-<scenario>-<timestamp>/checks.json` under `results`; not-scored scenarios from its log. */
export function readServerRuns(results: string, log: string, label: string): ScenarioRun[] {
  const notScored = new Set([...log.matchAll(/^ {2}[✓✗] (\S+) \((?:[^)]*)\)$/gm)].map((m) => m[1]!));
  const runs: ScenarioRun[] = [];
  for (const dir of existsSync(results) ? readdirSync(results).sort() : []) {
    const file = join(results, dir, "checks.json");
    if (!existsSync(file)) continue;
    const scenario = dir.replace(/^server-/, "").replace(/-\d{4}-\d{2}-\d{2}T[\d-]+Z$/, "");
    runs.push({
      scenario,
      label: label ? `${label} ${scenario}` : scenario,
      checks: JSON.parse(readFileSync(file, "utf8")) as Check[],
      scored: !notScored.has(scenario),
    });
  }
  return runs;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const [mode, label, log, results, rc] = process.argv.slice(2);
  if (mode !== "server" || !label || !log || !results) {
    console.error("usage: conformance-verdict.ts server LABEL LOG RESULTS EXIT");
    process.exit(2);
  }
  const text = existsSync(log) ? readFileSync(log, "utf8") : "";
  // A suite run ends with "Total: ..."; runs of single scenarios (--scenario) each end with "Passed: p/n, ...".
  const singles = [...text.matchAll(/^Passed: (\d+)\/(\d+), (\d+) failed/gm)].map((m) => m.slice(1).map(Number));
  const summed = singles.reduce((sum, [p, , f]) => [sum[0]! + p!, sum[1]! + f!], [0, 0]);
  const total =
    (text.match(/^Total: .*$/gm) ?? []).pop() ?? (singles.length ? `Total: ${summed[0]} passed, ${summed[1]} failed` : undefined);
  const v = judge(readServerRuns(results, text, ""), parseKnown(process.env.KNOWN_FAILURES ?? ""));
  if (total === undefined) v.ok = false;
  for (const line of report(label, v, total ?? `no summary (exit ${rc}); see ${log}`, "scripts/conformance.sh")) console.log(line);
  process.exit(v.ok ? 0 : 1);
}
