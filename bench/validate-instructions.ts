// Instructions per validation, counted by valgrind's callgrind, for bench/validate.ts' rows: the deciding
// measure of a few percent on a busy 2-core machine, where the timed ratios move by ±0.05 between runs.
// Each row is one child process under callgrind: it warms its validator up uninstrumented (V8 optimizes
// it on the set's shapes), callgrind's instrumentation is switched on through callgrind_control, and only
// the windows of N validations are counted (three, the median reported) (counters zeroed when the child enters uv_os_getpriority, dumped
// when it enters uv_os_gethostname). Node runs with --single-threaded, so the young-generation collections
// the window's garbage causes are counted on the one thread. The count includes the loop over the set
// (the same for every side) and the calls each side makes (StringEqual for option values longer than ten
// characters, which JSON.parse does not internalize).
// Run: npx tsx bench/validate-instructions.ts (after a build; needs valgrind). BENCH_VALIDATE_INSTR_N
// validations a window (default 100,000), BENCH_VALIDATE_INSTR_CASES=all adds the contact form.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { getPriority, hostname, tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import addFormats from "ajv-formats";
import { compileValidator, validateContent } from "../dist/schema/index.js";
import { callgrindArgs, dumps, instrumentationOn } from "./instructions.js";
import { cases } from "./validate.js";

const N = Number(process.env.BENCH_VALIDATE_INSTR_N ?? 100_000);
const WARMUP = 200_000;
// Windows per row: the median is reported. A collection that a timer starts (V8's memory reducer) can
// land in one window and add tens of instructions per validation to it.
const WINDOWS = 3;
const SIDES = ["validateContent", "compileValidator", "ajv", "ajv all errors"] as const;
type Side = (typeof SIDES)[number];
const SELF = fileURLToPath(import.meta.url);
/** BENCH_VALIDATE_INSTR_SIDES=validateContent,ajv counts only those sides (the others print NaN). */
const ONLY = (process.env.BENCH_VALIDATE_INSTR_SIDES ?? "").split(",").filter(Boolean);

/** The child: one side on one set, warmed up, then the counted window when the parent says "go". */
async function child(caseName: string, set: "valid" | "invalid", side: Side): Promise<void> {
  const c = cases().find((k) => k.name === caseName)!;
  const ajv = new Ajv({ strict: false, allErrors: side === "ajv all errors" });
  (addFormats as unknown as (a: Ajv, opts: { mode: "full" }) => Ajv)(ajv, { mode: "full" });
  const ajvValidate = ajv.compile(c.schema);
  const compiled = compileValidator(c.schema);
  const run: (content: unknown) => boolean =
    side === "validateContent"
      ? (content) => validateContent(c.schema, content).ok
      : side === "compileValidator"
        ? (content) => compiled(content).ok
        : (content) => ajvValidate(content) as boolean;
  const contents = c[set];
  const count = contents.length;
  let sink = 0;
  for (let i = 0; i < WARMUP; i++) if (run(contents[i % count])) sink++;
  console.log("warm");
  for await (const line of createInterface({ input: process.stdin })) if (line === "go") break;
  for (let w = 0; w < WINDOWS; w++) {
    (globalThis as { gc?: () => void }).gc?.(); // the window counts its own garbage, not the warm-up's
    getPriority(); // callgrind: --zero-before=uv_os_getpriority
    for (let i = 0; i < N; i++) if (run(contents[i % count])) sink++;
    hostname(); // callgrind: --dump-before=uv_os_gethostname
  }
  console.log(`done ${sink}`);
  process.exit(0);
}

/** Instructions per validation of one row, from its child's dump. */
async function count(caseName: string, set: "valid" | "invalid", side: Side): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), "elicit-validate-callgrind-"));
  try {
    const args = [...callgrindArgs(dir, SELF), "--child", caseName, set, side];
    const proc = spawn(process.env.VALGRIND ?? "valgrind", args, { stdio: ["pipe", "pipe", "pipe"] });
    let stderr = "";
    proc.stderr.on("data", (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)));
    const exited = new Promise<number | null>((resolve, reject) => {
      proc.once("error", reject);
      proc.once("exit", resolve);
    });
    for await (const line of createInterface({ input: proc.stdout })) {
      if (line === "warm") {
        instrumentationOn(proc.pid!);
        proc.stdin.write("go\n");
      }
    }
    const code = await exited;
    if (code !== 0) throw new Error(`${caseName} ${set} ${side}: the child under callgrind exited ${code}: ${stderr}`);
    const files = dumps(dir);
    if (files.length !== WINDOWS)
      throw new Error(`${caseName} ${set} ${side}: ${files.length} callgrind dumps in ${dir}, expected ${WINDOWS}`);
    const counts = files.map((dump) => {
      const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(dump, "utf8"));
      if (!totals) throw new Error(`${caseName} ${set} ${side}: ${dump} has no totals`);
      return Number(totals[1]) / N;
    });
    return counts.sort((a, b) => a - b)[Math.floor(WINDOWS / 2)]!;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface InstructionRow {
  schema: string;
  contents: "valid" | "invalid";
  perValidation: Record<Side, number>;
}

export async function benchValidateInstructions(all = process.env.BENCH_VALIDATE_INSTR_CASES === "all"): Promise<InstructionRow[]> {
  if (spawnSync(process.env.VALGRIND ?? "valgrind", ["--version"]).status !== 0) throw new Error("valgrind not found (install valgrind)");
  const rows: InstructionRow[] = [];
  for (const c of all ? cases() : cases().slice(0, 1)) {
    for (const set of ["valid", "invalid"] as const) {
      const perValidation = {} as Record<Side, number>;
      for (const side of SIDES) perValidation[side] = ONLY.length === 0 || ONLY.includes(side) ? await count(c.name, set, side) : NaN;
      rows.push({ schema: c.name, contents: set, perValidation });
    }
  }
  return rows;
}

export function formatInstructionTable(rows: InstructionRow[]): string {
  const head = ["schema", "contents", ...SIDES, "validateContent/ajv", "compiled/ajv", "validateContent/ajv all errors"];
  const body = rows.map((r) => {
    const p = r.perValidation;
    return [
      r.schema,
      r.contents,
      ...SIDES.map((s) => p[s].toFixed(1)),
      (p.validateContent / p.ajv).toFixed(2),
      (p.compileValidator / p.ajv).toFixed(2),
      (p.validateContent / p["ajv all errors"]).toFixed(2),
    ];
  });
  const table = [head, ...body];
  const widths = head.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col < 2 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(head), widths.map((w) => "-".repeat(w)).join("  "), ...body.map(line)].join("\n");
}

if (process.argv[1] === SELF) {
  const at = process.argv.indexOf("--child");
  if (at >= 0) await child(process.argv[at + 1]!, process.argv[at + 2] as "valid" | "invalid", process.argv[at + 3] as Side);
  else
    console.log(`instructions per validation (callgrind, N = ${N} a window)\n${formatInstructionTable(await benchValidateInstructions())}`);
}
