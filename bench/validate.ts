// Throughput of validateContent against Ajv 8 + ajv-formats (full mode) on the seed schemas:
// the Barcelona booking form of the seed document and the spec's contact form (test/data/), each with a
// mixed set of valid and invalid answers. Ajv compiles each schema once, before timing; our
// validator likewise caches its field model per schema object (warmed up before timing).
//
// Which validateContent is timed: the headline column is the compiled package in ../dist (what
// `npm run build` ships; `npm run bench` builds first), which tsx loads as plain JavaScript. The
// source as tsx runs it is shown too, for reference: tsx compiles .ts files with esbuild's
// `keepNames`, which wraps each closure our validator creates per call in a `__name(fn, "...")`
// helper (Object.defineProperty), several times slower than the shipped code.
import { Bench } from "tinybench";
import { Ajv, type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { validateContent as built, type RequestedSchema } from "../dist/schema/index.js";
import { validateContent as fromSource } from "../src/schema/index.js";
import { bookingSchema } from "../test/helpers/seeds.js";
import { specSchemaExamples } from "../test/helpers/spec.js";

interface Case {
  name: string;
  schema: RequestedSchema;
  /** A mix of valid and invalid answers; every timed iteration validates all of them. */
  contents: unknown[];
}

function cases(): Case[] {
  const contact = specSchemaExamples("2025-11-25").find((e) => JSON.stringify(e.schema).includes('"minimum":18'));
  if (!contact) throw new Error("the contact form example was not found in the 2025-11-25 spec");
  return [
    {
      name: "booking (seed 004)",
      schema: bookingSchema(),
      contents: [
        { confirmBooking: true },
        { confirmBooking: false, seatPreference: "window", roomType: "sea view", travelInsurance: true },
        { confirmBooking: true, seatPreference: "no preference", roomType: "garden view" },
        { confirmBooking: true, travelInsurance: false, note: "extra keys are allowed" },
        {},
        { confirmBooking: "yes" },
        { confirmBooking: true, seatPreference: "middle" },
        { confirmBooking: true, roomType: "Sea view" },
        { confirmBooking: true, travelInsurance: "false" },
        null,
      ],
    },
    {
      name: "contact (spec 2025-11-25)",
      schema: contact.schema as RequestedSchema,
      contents: [
        { name: "Ada Lovelace", email: "ada@example.com" },
        { name: "Ada", email: "ada@example.com", age: 36 },
        { name: "Ünïcode 😀", email: "first.last+tag@sub.example.org", age: 18 },
        { name: "", email: "a@b.co", age: 120.5, extra: true },
        { name: "Ada" },
        { name: "Ada", email: "ada@example" },
        { name: "Ada", email: "ada@example.com", age: 17 },
        { name: "Ada", email: "ada@example.com", age: "36" },
        { email: "ada@example.com" },
        { name: 42, email: "ada@example.com" },
      ],
    },
  ];
}

export interface ValidateBenchRow {
  schema: string;
  /** Validations per second (one content each): validateContent as built, as tsx runs it, and Ajv. */
  ours: number;
  oursTsx: number;
  ajv: number;
  valid: number;
  total: number;
}

/** How many times each timed iteration runs through the content set (keeps timer overhead low). */
const REPEAT = 20;

export async function benchValidate(options: { time?: number; warmupTime?: number } = {}): Promise<ValidateBenchRow[]> {
  const ajv = new Ajv({ strict: false, allErrors: false });
  (addFormats as unknown as (a: Ajv, opts: { mode: "full" }) => Ajv)(ajv, { mode: "full" });
  const rows: ValidateBenchRow[] = [];
  let sink = 0;

  for (const c of cases()) {
    const validate: ValidateFunction = ajv.compile(c.schema); // compiled once, outside the timed loop
    // Not a timing assertion: a bench of two validators that disagree would be meaningless.
    const verdicts = c.contents.map((content) => built(c.schema, content).ok);
    c.contents.forEach((content, i) => {
      if (validate(content) !== verdicts[i] || fromSource(c.schema, content).ok !== verdicts[i]) {
        throw new Error(`${c.name}: validators disagree on ${JSON.stringify(content)}`);
      }
    });

    const bench = new Bench({ name: c.name, time: options.time ?? 1000, warmupTime: options.warmupTime ?? 250, throws: true });
    bench.add("validateContent", () => {
      for (let r = 0; r < REPEAT; r++) for (const content of c.contents) if (built(c.schema, content).ok) sink++;
    });
    bench.add("validateContent (tsx)", () => {
      for (let r = 0; r < REPEAT; r++) for (const content of c.contents) if (fromSource(c.schema, content).ok) sink++;
    });
    bench.add("ajv", () => {
      for (let r = 0; r < REPEAT; r++) for (const content of c.contents) if (validate(content)) sink++;
    });
    await bench.run();

    const perSecond = (name: string) => {
      const result = bench.getTask(name)?.result;
      if (!result || (result.state !== "completed" && result.state !== "aborted-with-statistics")) {
        throw new Error(`${c.name} / ${name}: ${result?.state ?? "no result"}`);
      }
      return (REPEAT * c.contents.length * 1000) / result.period;
    };
    rows.push({
      schema: c.name,
      ours: perSecond("validateContent"),
      oursTsx: perSecond("validateContent (tsx)"),
      ajv: perSecond("ajv"),
      valid: verdicts.filter(Boolean).length,
      total: verdicts.length,
    });
  }
  if (sink < 0) console.log(sink); // keeps the results alive
  return rows;
}

export function formatValidateTable(rows: ValidateBenchRow[]): string {
  const ops = (n: number) => Math.round(n).toLocaleString("en-US");
  const table = [
    ["schema", "contents (valid/all)", "validateContent ops/s", "ajv ops/s", "ours/ajv", "(ours under tsx ops/s)"],
    ...rows.map((r) => [r.schema, `${r.valid}/${r.total}`, ops(r.ours), ops(r.ajv), `${(r.ours / r.ajv).toFixed(3)}`, ops(r.oursTsx)]),
  ];
  const widths = table[0]!.map((_, col) => Math.max(...table.map((row) => row[col]!.length)));
  const line = (row: string[]) => row.map((cell, col) => (col === 0 ? cell.padEnd(widths[col]!) : cell.padStart(widths[col]!))).join("  ");
  return [line(table[0]!), widths.map((w) => "-".repeat(w)).join("  "), ...table.slice(1).map(line)].join("\n");
}
