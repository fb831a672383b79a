// `npm run bench` (= `npm run build && tsx bench/run.ts`): runs every benchmark in turn and prints
// its table; `npm run bench -- validate server` runs only the benches named (each entry's `name`).
// The benches time the compiled package in ../dist, i.e. what ships. Timings are informative only:
// nothing here asserts on them. Add a bench by adding an entry to BENCHES.
import { benchAuth, formatAuthTable } from "./auth.js";
import { benchCliStart, formatCliStartTable } from "./cli-start.js";
import { benchFleet, formatFleetTables } from "./fleet.js";
import { benchGateway, formatGatewayTable } from "./gateway.js";
import { benchInputs, formatInputsTables } from "./inputs.js";
import { benchInstructions, formatInstructionsTable } from "./instructions.js";
import { benchScale, formatScaleTables } from "./scale.js";
import { benchServer, formatServerTables } from "./server.js";
import { benchValidate, formatValidateTable } from "./validate.js";
import { benchWebRender, formatWebRenderTable } from "./web-render.js";
import { benchWebUI, formatWebUITable } from "./web-ui.js";
import { benchWorkerd, formatWorkerdTable } from "./workerd.js";

const BENCHES: { name: string; title: string; run: () => Promise<string> }[] = [
  {
    name: "validate",
    title: "validateContent vs Ajv 8 + ajv-formats (ops/s = validations per second, one content each)",
    run: async () => formatValidateTable(await benchValidate()),
  },
  {
    name: "server",
    title: "Elicitation round trips: our kit (ctx.elicit) vs the SDK's own path, in-memory and Streamable HTTP",
    run: async () => formatServerTables(await benchServer()),
  },
  {
    name: "inputs",
    title: "Sampling and roots round trips: our kit (ctx.sample, ctx.roots) vs the SDK by hand, in-memory and Streamable HTTP",
    run: async () => formatInputsTables(await benchInputs()),
  },
  {
    name: "auth",
    title: "Bearer auth: a plain tools/call over Streamable HTTP with and without serveHttp's auth, and the JWT check alone",
    run: async () => formatAuthTable(await benchAuth()),
  },
  {
    name: "gateway",
    title: "elicit gateway: a forwarded tools/call round trip vs a direct one, stdio and Streamable HTTP, 2025-11-25 and 2026-07-28 hosts",
    run: async () => formatGatewayTable(await benchGateway()),
  },
  {
    name: "web-render",
    title: "Web components: bundle size, and <mcp-elicit-form> from request to a rendered, focused form in headless Chromium",
    run: async () => formatWebRenderTable(await benchWebRender()),
  },
  {
    name: "web-ui",
    title: "webUI: start, a server's question to the form in an open page, the page's answer to the tool result (headless Chromium)",
    run: async () => formatWebUITable(await benchWebUI()),
  },
  {
    name: "scale",
    title: "At scale: BENCH_SCALE_N (default 10,000) concurrent elicitations on one server process, ours vs the raw SDK (takes minutes)",
    run: async () => formatScaleTables(await benchScale()),
  },
  {
    name: "workerd",
    title:
      "Workers: a 2026-07-28 ctx.elicit round trip in workerd (Miniflare), the kit's createFetchHandler vs a bare tool on the SDK's createMcpHandler",
    run: async () => formatWorkerdTable(await benchWorkerd()),
  },
  {
    name: "instructions",
    title:
      "Instructions per call (valgrind callgrind): 2026-07-28 ctx.elicit vs a bare raw inputRequired tool, in-memory and the HTTP server process",
    run: async () => formatInstructionsTable(await benchInstructions()),
  },
  {
    name: "cli-start",
    title:
      "elicit start-up: node dist/cli/main.js --help, --version, tools --help, lint, and npx elicit --help, against node -e 0 (wall, peak RSS)",
    run: async () => formatCliStartTable(await benchCliStart()),
  },
  {
    name: "fleet",
    title:
      "Fleet: 3 CPU-capped members on Redis behind HAProxy against 1 capped member, round-trip throughput and URL-completion delivery across members",
    run: async () => formatFleetTables(await benchFleet()),
  },
];

// Each kind of process warning is printed once, then counted. The one expected: the SDK's Streamable
// HTTP client passes its one AbortSignal to every POST (here, each answer to a 2025-era server
// request), and undici drops a fetch's abort listener only when that request is garbage-collected,
// so thousands of calls between collections trip MaxListenersExceededWarning (on the raw SDK path as
// much as ours; the heap returns to its baseline).
const warnings = new Map<string, number>();
process.removeAllListeners("warning");
process.on("warning", (warning) => {
  const seen = warnings.get(warning.name) ?? 0;
  warnings.set(warning.name, seen + 1);
  if (seen === 0) console.error(`(${warning.name}: ${warning.message} Printed once.)`);
});

const named = process.argv.slice(2);
const unknown = named.filter((name) => !BENCHES.some((b) => b.name === name));
if (unknown.length) {
  console.error(`bench: no bench named ${unknown.join(", ")}; the benches are ${BENCHES.map((b) => b.name).join(", ")}.`);
  process.exit(2);
}
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const bench of BENCHES.filter((b) => named.length === 0 || named.includes(b.name))) {
  const started = performance.now();
  const table = await bench.run();
  console.log(`\n## ${bench.title}\n\n${table}\n\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
if (warnings.size) console.log(`\n(process warnings: ${[...warnings].map(([name, n]) => `${name} × ${n}`).join(", ")})`);
