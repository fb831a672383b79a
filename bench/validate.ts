// validateContent against Ajv 8 + ajv-formats (full mode) on the seed schemas: the Barcelona booking
// form of the seed document and the spec's contact form (test/data/), each with a set of valid and a set
// of invalid answers, timed apart. Both compile each schema once, outside the timed loop (ours on its
// first call, cached per schema object). Two more measures: the first call on a schema never seen
// (compile + validate, both), and the heap each cached compiled form holds. Beside bare Ajv, Ajv at equal
// result ("ajv + copy"): the fresh object with the schema's own fields, or the errors per field, that
// validateContent returns. Instructions per validation: bench/validate-instructions.ts.
//
// The compiled package in ../dist is timed (what `npm run build` ships), loaded by tsx as plain JavaScript.
import { fileURLToPath } from "node:url";
import { runInNewContext } from "node:vm";
import { setFlagsFromString } from "node:v8";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { compileValidator, validateContent, type RequestedSchema } from "../dist/schema/index.js";
import { bookingSchema } from "../test/helpers/seeds.js";
import { specSchemaExamples } from "../test/helpers/spec.js";

interface Case {
  name: string;
  schema: RequestedSchema;
  valid: unknown[];
  invalid: unknown[];
}

export function cases(): Case[] {
  const contact = specSchemaExamples("2025-11-25").find((e) => JSON.stringify(e.schema).includes('"minimum":18'));
  if (!contact) throw new Error("the contact form example was not found in the 2025-11-25 spec");
  // Answers as they arrive: parsed from JSON.
  const parsed = (values: unknown[]) => JSON.parse(JSON.stringify(values)) as unknown[];
  return [
    {
      name: "booking (seed 004)",
      schema: bookingSchema(),
      valid: parsed([
        { confirmBooking: true },
        { confirmBooking: false, seatPreference: "window", roomType: "sea view", travelInsurance: true },
        { confirmBooking: true, seatPreference: "no preference", roomType: "garden view" },
        { confirmBooking: true, travelInsurance: false, note: "extra keys are allowed" },
      ]),
      invalid: parsed([
        {},
        { confirmBooking: "yes" },
        { confirmBooking: true, seatPreference: "middle" },
        { confirmBooking: true, roomType: "Sea view" },
        { confirmBooking: true, travelInsurance: "false" },
        null,
      ]),
    },
    {
      name: "contact (spec 2025-11-25)",
      schema: contact.schema as RequestedSchema,
      valid: parsed([
        { name: "Ada Lovelace", email: "ada@example.com" },
        { name: "Ada", email: "ada@example.com", age: 36 },
        { name: "Ünïcode 😀", email: "first.last+tag@sub.example.org", age: 18 },
        { name: "", email: "a@b.co", age: 120.5, extra: true },
      ]),
      invalid: parsed([
        { name: "Ada" },
        { name: "Ada", email: "ada@example" },
        { name: "Ada", email: "ada@example.com", age: 17 },
        { name: "Ada", email: "ada@example.com", age: "36" },
        { email: "ada@example.com" },
        { name: 42, email: "ada@example.com" },
      ]),
    },
  ];
}

export interface ValidateBenchRow {
  schema: string;
  /** "valid", "invalid": throughput, validations per second (one content each). */
  contents: "valid" | "invalid";
  count: number;
  /** Ajv's mode: stop at the first error (Ajv's default) or collect them all (`allErrors: true`), as validateContent does. */
  ajvErrors: "first" | "all";
  /** validateContent(schema, content): the cached compiled validator looked up per call. */
  ours: number;
  /** compileValidator(schema) once, then called: the counterpart of Ajv's compile. */
  compiled: number;
  ajv: number;
  /** Ajv followed by what validateContent's contract adds: a fresh object with the schema's own fields, and a result with errors per field. */
  ajvCopy: number;
  /** The medians of the paired rounds' ours/ajv, compiled/ajv and ours/(ajv + copy). */
  ratio: number;
  compiledRatio: number;
  copyRatio: number;
}

export interface FirstCallRow {
  schema: string;
  /** Microseconds for compile + validate of one content, on a schema object never seen. */
  oursMicros: number;
  ajvMicros: number;
  /** Heap bytes each compiled form keeps while cached. */
  oursBytes: number;
  ajvBytes: number;
}

export interface ValidateBench {
  throughput: ValidateBenchRow[];
  firstCall: FirstCallRow[];
}

/** How many times each timed batch runs through the content set (about a millisecond a batch). */
const REPEAT = 500;
/** Paired batches per row. */
const ROUNDS = 301;

function newAjv(allErrors = false): Ajv {
  const ajv = new Ajv({ strict: false, allErrors });
  (addFormats as unknown as (a: Ajv, opts: { mode: "full" }) => Ajv)(ajv, { mode: "full" });
  return ajv;
}

let sink = 0;

function throughput(c: Case, contents: "valid" | "invalid", options: BenchOptions, ajvErrors: "first" | "all" = "first"): ValidateBenchRow {
  const ajv = newAjv(ajvErrors === "all");
  const validate: ValidateFunction = ajv.compile(c.schema); // compiled once, outside the timed loop
  const set = c[contents];
  // Not a timing assertion: a bench of two validators that disagree (or of the wrong set) would be meaningless.
  for (const content of set) {
    const ours = validateContent(c.schema, content).ok;
    if (validate(content) !== ours || ours !== (contents === "valid")) {
      throw new Error(`${c.name}: ${JSON.stringify(content)} is not ${contents} for both validators`);
    }
  }
  // Paired batches in turns, order alternating: on a shared machine both sides see the same load, and
  // the median of the per-round ratios is what the table reports (rates: the median batch of each).
  const batch = (run: (content: unknown) => boolean) => {
    const started = process.hrtime.bigint();
    for (let r = 0; r < REPEAT; r++) for (const content of set) if (run(content)) sink++;
    return (REPEAT * set.length * 1e9) / Number(process.hrtime.bigint() - started);
  };
  const ours = (content: unknown) => validateContent(c.schema, content).ok;
  const validator = compileValidator(c.schema);
  const compiled = (content: unknown) => validator(content).ok;
  const theirs = (content: unknown) => validate(content) as boolean;
  const withCopy = ajvWithCopy(c.schema, validate);
  const theirsCopied = (content: unknown) => withCopy(content).ok;
  const deadline = performance.now() + (options.warmupTime ?? 250);
  while (performance.now() < deadline) {
    batch(ours);
    batch(compiled);
    batch(theirs);
    batch(theirsCopied);
  }
  const rates = { ours: [] as number[], compiled: [] as number[], ajv: [] as number[], ajvCopy: [] as number[] };
  const ratios = { ours: [] as number[], compiled: [] as number[], copy: [] as number[] };
  for (let round = 0; round < ROUNDS; round++) {
    // Ajv first, between or last in turn.
    const ajvAt = round % 3;
    const a = ajvAt === 0 ? batch(theirs) : 0;
    const o = batch(ours);
    const b = ajvAt === 1 ? batch(theirs) : a;
    const k = batch(compiled);
    const ajvRate = ajvAt === 2 ? batch(theirs) : b;
    const copied = batch(theirsCopied);
    rates.ajvCopy.push(copied);
    ratios.copy.push(o / copied);
    rates.ours.push(o);
    rates.compiled.push(k);
    rates.ajv.push(ajvRate);
    ratios.ours.push(o / ajvRate);
    ratios.compiled.push(k / ajvRate);
  }
  return {
    schema: c.name,
    contents,
    count: set.length,
    ajvErrors,
    ours: median(rates.ours),
    compiled: median(rates.compiled),
    ajv: median(rates.ajv),
    ratio: median(ratios.ours),
    compiledRatio: median(ratios.compiled),
    ajvCopy: median(rates.ajvCopy),
    copyRatio: median(ratios.copy),
  };
}

/**
 * Ajv at equal result: what a caller of Ajv writes to get validateContent's result. On success a fresh
 * object with the schema's own fields (own keys only, in schema order); on failure one error per
 * problem, with the field and the rule (Ajv's own English message: the wording is not timed).
 */
function ajvWithCopy(schema: RequestedSchema, validate: ValidateFunction) {
  const names = Object.keys(schema.properties);
  return (
    content: unknown,
  ): { ok: true; value: Record<string, unknown> } | { ok: false; errors: { field: string; rule: string; message: string }[] } => {
    if (validate(content)) {
      const value: Record<string, unknown> = {};
      const input = content as Record<string, unknown>;
      for (const name of names) if (Object.hasOwn(input, name) && input[name] !== undefined) value[name] = input[name];
      return { ok: true, value };
    }
    return {
      ok: false,
      errors: (validate.errors ?? []).map((e) => ({
        field: e.keyword === "required" ? String((e.params as { missingProperty: string }).missingProperty) : e.instancePath.slice(1),
        rule: e.keyword,
        message: e.message ?? "",
      })),
    };
  };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)]!;

/** A collector to measure the heap with: --expose-gc turned on for this process, then gc fetched. */
function collector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/** Time per compile + first validation, and heap per cached form, over `n` fresh copies of the schema. */
function firstCall(c: Case, n: number): FirstCallRow {
  const gc = collector();
  const content = c.valid[1] ?? c.valid[0];
  const copies = (count: number) => Array.from({ length: count }, () => structuredClone(c.schema));
  const measure = (count: number, run: (schema: RequestedSchema) => boolean) => {
    const schemas = copies(count);
    gc();
    const heapBefore = process.memoryUsage().heapUsed;
    const started = process.hrtime.bigint();
    for (const schema of schemas) if (run(schema)) sink++;
    const micros = Number(process.hrtime.bigint() - started) / 1000 / count;
    gc();
    const bytes = (process.memoryUsage().heapUsed - heapBefore) / count;
    return { micros, bytes, schemas }; // the schemas (and so the cache entries) stay alive until measured
  };
  const ours = measure(n, (schema) => validateContent(schema, content).ok);
  // Ajv keeps what it compiles in its instance: one instance per run, alive until measured.
  const ajv = newAjv();
  const theirs = measure(Math.max(1, Math.round(n / 10)), (schema) => ajv.compile(schema)(content) as boolean);
  return { schema: c.name, oursMicros: ours.micros, ajvMicros: theirs.micros, oursBytes: ours.bytes, ajvBytes: theirs.bytes };
}

interface BenchOptions {
  warmupTime?: number;
  /** Fresh schema copies compiled by the first-call measure (Ajv compiles a tenth as many). */
  copies?: number;
}

export async function benchValidate(options: BenchOptions = {}): Promise<ValidateBench> {
  const result: ValidateBench = { throughput: [], firstCall: [] };
  for (const c of cases()) {
    // On invalid answers validateContent words every broken field: Ajv is timed both ways.
    result.throughput.push(throughput(c, "valid", options), throughput(c, "invalid", options), throughput(c, "invalid", options, "all"));
  }
  for (const c of cases()) result.firstCall.push(firstCall(c, options.copies ?? 2000));
  if (sink < 0) console.log(sink); // keeps the results alive
  return result;
}

function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(rows[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...rows.slice(1).map(line)].join("\n");
}

export function formatValidateTable(result: ValidateBench): string {
  const ops = (n: number) => Math.round(n).toLocaleString("en-US");
  const throughputTable = table([
    [
      "schema",
      "contents",
      "validateContent ops/s",
      "compileValidator ops/s",
      "ajv errors",
      "ajv ops/s",
      "ours/ajv",
      "compiled/ajv",
      "ajv + copy ops/s",
      "ours/(ajv + copy)",
    ],
    ...result.throughput.map((r) => [
      r.schema,
      `${r.count} ${r.contents}`,
      ops(r.ours),
      ops(r.compiled),
      r.ajvErrors,
      ops(r.ajv),
      r.ratio.toFixed(2),
      r.compiledRatio.toFixed(2),
      ops(r.ajvCopy),
      r.copyRatio.toFixed(2),
    ]),
  ]);
  const firstTable = table([
    ["schema", "first call µs (compile + validate)", "ajv µs", "ajv/ours", "heap per cached form", "ajv heap per compiled form"],
    ...result.firstCall.map((r) => [
      r.schema,
      r.oursMicros.toFixed(1),
      r.ajvMicros.toFixed(1),
      (r.ajvMicros / r.oursMicros).toFixed(0),
      `${(r.oursBytes / 1024).toFixed(1)} kB`,
      `${(r.ajvBytes / 1024).toFixed(1)} kB`,
    ]),
  ]);
  return `${throughputTable}\n\n${firstTable}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(formatValidateTable(await benchValidate()));
