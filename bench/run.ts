// `npm run bench` (= `npm run build && tsx bench/run.ts`): runs every benchmark in turn and prints
// its table. The benches time the compiled package in ../dist, i.e. what ships. Timings are
// informative only: nothing here asserts on them. Add a bench by adding an entry to BENCHES.
import { benchServer, formatServerTables } from "./server.js";
import { benchValidate, formatValidateTable } from "./validate.js";

const BENCHES: { title: string; run: () => Promise<string> }[] = [
  {
    title: "validateContent vs Ajv 8 + ajv-formats (ops/s = validations per second, one content each)",
    run: async () => formatValidateTable(await benchValidate()),
  },
  {
    title: "Elicitation round trips: our kit (ctx.elicit) vs the SDK's own path, in-memory and Streamable HTTP",
    run: async () => formatServerTables(await benchServer()),
  },
];

console.log(`node ${process.version}, ${process.platform}/${process.arch}`);
for (const bench of BENCHES) {
  const started = performance.now();
  const table = await bench.run();
  console.log(`\n## ${bench.title}\n\n${table}\n\n(${((performance.now() - started) / 1000).toFixed(1)} s)`);
}
