// A 2026-07-28 round trip in workerd (Miniflare, as `wrangler dev --local` runs a Worker): the kit's
// ctx.elicit behind createFetchHandler against a bare tool on the SDK's createMcpHandler, the same
// booking form asked once, both in one Worker (bench/workerd-worker.ts, bundled from dist/ as it ships).
// Timed from Node over HTTP on 127.0.0.1 with the harness's method: warmed up, then nine rounds of
// batches in rotated order; kit/bare is the median of the per-round ratios. Wall time only: the calls'
// CPU is spent in the workerd process. The kit's round carries what the bare one does not: requestState
// sealed with AES-256-GCM and bound to the tool, arguments and caller, checked on the retry, the call
// ledger's records in the store (memory here), and the answer validated against the form.
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { startWorker } from "../test/helpers/workerd.js";
import { ARGS, loadLine, median, table, us } from "./harness.js";
import { elicitAnswerer } from "./tools.js";

const WARMUP_MS = Number(process.env.BENCH_WARMUP_MS ?? 1500);
const BATCH_MS = 180;
const ROUNDS = 9;

export interface WorkerdRow {
  plainUs: number;
  bareUs: number;
  kitUs: number;
  kitOverBare: number;
  min: number;
  max: number;
  calls: number;
}

function client(): Client {
  const c = new Client({ name: "bench-workerd-client", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    versionNegotiation: { mode: { pin: "2026-07-28" } },
    inputRequired: { autoFulfill: true },
  } as never);
  c.setRequestHandler("elicitation/create", elicitAnswerer());
  return c;
}

export async function benchWorkerd(): Promise<WorkerdRow> {
  const worker = await startWorker("bench/workerd.jsonc", { from: "dist" });
  const kit = client();
  const sdk = client();
  try {
    await kit.connect(new StreamableHTTPClientTransport(new URL("/kit", worker.url)));
    await sdk.connect(new StreamableHTTPClientTransport(new URL("/sdk", worker.url)));
    const runs = {
      plain: () => sdk.callTool({ name: "plain", arguments: ARGS }),
      bare: () => sdk.callTool({ name: "book", arguments: ARGS }),
      kit: () => kit.callTool({ name: "book", arguments: ARGS }),
    };
    for (const [name, run] of Object.entries(runs)) {
      const text = ((await run()) as { content: { text: string }[] }).content[0]?.text ?? "";
      if (name !== "plain" && !text.startsWith('elicit Barcelona: {"confirmBooking":true'))
        throw new Error(`${name}: unexpected result ${text}`);
    }
    const names = Object.keys(runs) as (keyof typeof runs)[];
    const perBatch = {} as Record<keyof typeof runs, number>;
    for (const name of names) {
      let n = 0;
      const start = performance.now();
      for (; performance.now() - start < WARMUP_MS; n++) await runs[name]();
      perBatch[name] = Math.max(5, Math.round((n * BATCH_MS) / WARMUP_MS));
    }
    const samples = { plain: [] as number[], bare: [] as number[], kit: [] as number[] };
    const ratios: number[] = [];
    for (let r = 0; r < ROUNDS; r++) {
      for (let i = 0; i < names.length; i++) {
        const name = names[(i + r) % names.length]!;
        const start = performance.now();
        for (let k = 0; k < perBatch[name]; k++) await runs[name]();
        samples[name].push(((performance.now() - start) * 1000) / perBatch[name]);
      }
      ratios.push(samples.kit.at(-1)! / samples.bare.at(-1)!);
    }
    return {
      plainUs: median(samples.plain),
      bareUs: median(samples.bare),
      kitUs: median(samples.kit),
      kitOverBare: median(ratios),
      min: Math.min(...ratios),
      max: Math.max(...ratios),
      calls: ROUNDS * (perBatch.plain + perBatch.bare + perBatch.kit),
    };
  } finally {
    await Promise.allSettled([kit.close(), sdk.close()]);
    await worker.stop();
  }
}

export function formatWorkerdTable(row: WorkerdRow): string {
  return [
    loadLine(),
    table([
      ["setup", "plain µs", "bare SDK µs", "kit µs", "kit/bare", "(per-round range)", "timed calls"],
      [
        "workerd, HTTP 127.0.0.1, 2026-07-28",
        us(row.plainUs),
        us(row.bareUs),
        us(row.kitUs),
        row.kitOverBare.toFixed(3),
        `${row.min.toFixed(2)}–${row.max.toFixed(2)}`,
        String(row.calls),
      ],
    ]),
  ].join("\n");
}
