// How long the `elicit` command takes to start, against `node -e 0`: the built bin (node
// dist/cli/main.js) with --help, --version, `tools --help` and `lint` on a small form, and `npx elicit
// --help` (the workspace's bin through npx), which is how the issue's 8.8× was measured.
// Paired: each round runs `node -e 0` and every command once, in an order rotated per round; a
// command's ratio is the median of its per-round ratios to that round's `node -e 0`. Peak RSS is
// /usr/bin/time's %M (the largest process of the run: for npx, npm itself), where it is installed, and
// CPU time its %U + %S (medians; not paired).
// Then which modules --help loads (test/cli/loaded-modules.ts), largest first.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { BIN, bySize, modulesLoadedBy } from "../test/helpers/loaded-modules.js";
import { loadLine, median, table } from "./harness.js";

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 15);
const TIME = "/usr/bin/time";
const ROOT = join(BIN, "..", "..", "..");

interface Case {
  name: string;
  command: string[];
}

interface Sample {
  ms: number;
  kib: number | undefined;
  /** User + system CPU ms (/usr/bin/time, 10 ms resolution): moves less than wall when others take the cores. */
  cpuMs: number | undefined;
}

/** One run: wall ms from spawn to exit (in this process) and the peak RSS /usr/bin/time saw. */
function runOnce(command: string[]): Sample {
  const timed = existsSync(TIME);
  const argv = timed ? [TIME, "-f", "peak-rss-kib %M cpu-s %U %S", ...command] : command;
  const start = process.hrtime.bigint();
  const run = spawnSync(argv[0]!, argv.slice(1), { cwd: ROOT, stdio: ["ignore", "pipe", "pipe"], encoding: "utf8" });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (run.status !== 0) throw new Error(`${command.join(" ")} exited ${run.status}: ${run.stderr.slice(-400)}`);
  const m = /peak-rss-kib (\d+) cpu-s ([\d.]+) ([\d.]+)/.exec(run.stderr);
  return m ? { ms, kib: Number(m[1]), cpuMs: 1000 * (Number(m[2]) + Number(m[3])) } : { ms, kib: undefined, cpuMs: undefined };
}

export interface CliStartRow {
  name: string;
  ms: number;
  ratio: number;
  ratioMin: number;
  ratioMax: number;
  kib: number | undefined;
  cpuMs: number | undefined;
}

export interface CliStartResult {
  rounds: number;
  rows: CliStartRow[];
  helpModules: { file: string; bytes: number }[];
}

export async function benchCliStart(): Promise<CliStartResult> {
  if (!existsSync(BIN)) throw new Error(`cli-start: ${BIN} is missing; build first (npm run build)`);
  const dir = mkdtempSync(join(tmpdir(), "elicit-cli-start-"));
  try {
    const form = join(dir, "form.json");
    writeFileSync(form, JSON.stringify({ type: "object", properties: { age: { type: "integer", minimum: 18 } } }));
    const node = process.execPath;
    const baseline: Case = { name: "node -e 0", command: [node, "-e", "0"] };
    const cases: Case[] = [
      { name: "elicit --help", command: [node, BIN, "--help"] },
      { name: "elicit --version", command: [node, BIN, "--version"] },
      { name: "elicit tools --help", command: [node, BIN, "tools", "--help"] },
      { name: "elicit lint form.json", command: [node, BIN, "lint", form] },
      { name: "npx elicit --help", command: ["npx", "--no-install", "elicit", "--help"] },
    ];
    const all = [baseline, ...cases];
    for (const c of all) runOnce(c.command); // the file cache warm for every command
    const samples = new Map<string, Sample[]>(all.map((c) => [c.name, []]));
    const ratios = new Map<string, number[]>(cases.map((c) => [c.name, []]));
    for (let r = 0; r < ROUNDS; r++) {
      const round = new Map<string, Sample>();
      for (let i = 0; i < all.length; i++) {
        const c = all[(i + r) % all.length]!;
        round.set(c.name, runOnce(c.command));
        samples.get(c.name)!.push(round.get(c.name)!);
      }
      for (const c of cases) ratios.get(c.name)!.push(round.get(c.name)!.ms / round.get(baseline.name)!.ms);
    }
    const rows = all.map((c): CliStartRow => {
      const s = samples.get(c.name)!;
      const kibs = s.map((x) => x.kib).filter((k) => k !== undefined);
      const cpus = s.map((x) => x.cpuMs).filter((k) => k !== undefined);
      const rs = ratios.get(c.name) ?? [1];
      return {
        name: c.name,
        ms: median(s.map((x) => x.ms)),
        ratio: median(rs),
        ratioMin: Math.min(...rs),
        ratioMax: Math.max(...rs),
        kib: kibs.length ? median(kibs) : undefined,
        cpuMs: cpus.length ? median(cpus) : undefined,
      };
    });
    const { files } = await modulesLoadedBy(["--help"]);
    return { rounds: ROUNDS, rows, helpModules: bySize(files).map(({ file, bytes }) => ({ file: relative(ROOT, file), bytes })) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export function formatCliStartTable(r: CliStartResult): string {
  const base = r.rows[0]!;
  const mib = (kib: number | undefined) => (kib === undefined ? "-" : (kib / 1024).toFixed(1));
  const rows = table([
    [
      "command",
      "wall ms (median)",
      "/ node -e 0 (paired)",
      "(per-round range)",
      "CPU ms",
      "CPU / node -e 0",
      "peak RSS MiB",
      "RSS / node -e 0",
    ],
    ...r.rows.map((row) => [
      row.name,
      row.ms.toFixed(1),
      row === base ? "1" : row.ratio.toFixed(2),
      row === base ? "" : `${row.ratioMin.toFixed(2)}–${row.ratioMax.toFixed(2)}`,
      row.cpuMs === undefined ? "-" : row.cpuMs.toFixed(0),
      row.cpuMs !== undefined && base.cpuMs ? (row.cpuMs / base.cpuMs).toFixed(2) : "-",
      mib(row.kib),
      row.kib !== undefined && base.kib !== undefined ? (row.kib / base.kib).toFixed(2) : "-",
    ]),
  ]);
  const total = r.helpModules.reduce((sum, m) => sum + m.bytes, 0);
  const modules = table([
    ["module loaded by elicit --help", "kB"],
    ...r.helpModules.map((m) => [m.file, (m.bytes / 1000).toFixed(1)]),
    [`(${r.helpModules.length} files)`, (total / 1000).toFixed(1)],
  ]);
  return [
    loadLine(),
    `${r.rounds} paired rounds; node = ${process.execPath} ${process.version}; elicit = node dist/cli/main.js (npx: node_modules/.bin/elicit through npx).`,
    "",
    rows,
    "",
    modules,
  ].join("\n");
}

// Run alone: npx tsx bench/cli-start.ts (after a build)
if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatCliStartTable(await benchCliStart()));
