// The travel Worker's bundle, as wrangler would build it for workerd (minified): it carries no Node
// serving code it never calls (no node:http, node:http2 or node:net: serveHttp lives in
// mcp-elicit/node), and its size is printed, minified and gzipped.
import { test } from "node:test";
import assert from "node:assert/strict";
import { gzipSync } from "node:zlib";
import { bundleWorker } from "../helpers/workerd.js";

test("the Worker bundles no node:http, node:http2 or node:net, and says its size", async () => {
  const bundle = await bundleWorker("examples/cloudflare-worker/worker.ts", { minify: true });
  const output = Object.values(bundle.metafile.outputs)[0]!;
  const builtins = [...new Set(output.imports.filter((i) => i.external).map((i) => i.path))].sort();
  for (const forbidden of ["node:http", "node:https", "node:http2", "node:net"])
    assert.ok(!builtins.includes(forbidden), `the Worker imports ${forbidden}: ${builtins.join(", ")}`);
  const bytes = Buffer.byteLength(bundle.code);
  const gzipped = gzipSync(bundle.code).length;
  // The biggest inputs, so a change that pulls something large in shows where it came from.
  const largest = Object.entries(output.inputs)
    .sort(([, a], [, b]) => b.bytesInOutput - a.bytesInOutput)
    .slice(0, 5)
    .map(([path, { bytesInOutput }]) => `${path.replace(/^.*node_modules\//, "")} ${(bytesInOutput / 1024).toFixed(0)} KiB`);
  console.log(
    `Worker bundle: ${(bytes / 1024).toFixed(0)} KiB minified, ${(gzipped / 1024).toFixed(0)} KiB gzipped; Node built-ins it imports: ${builtins.join(", ")}; largest inputs: ${largest.join(", ")}`,
  );
  // Workers' free plan takes up to 3 MiB gzipped.
  assert.ok(gzipped < 3 * 1024 * 1024, `${gzipped} bytes gzipped`);
});
