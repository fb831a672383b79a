// mcp-elicit/cloudflare takes Cloudflare's bindings through structural types (no Cloudflare dependency at
// run time): a Worker written against @cloudflare/workers-types (fixtures/cloudflare-types/worker.ts, its
// own tsconfig) hands its D1Database, DurableObjectNamespace stubs and DurableObject ctx.storage to them.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const TSC = `${root}node_modules/typescript/bin/tsc`;

test("a Worker typed with @cloudflare/workers-types compiles against mcp-elicit/cloudflare", { timeout: 120_000 }, async () => {
  const output = await new Promise<string>((resolve) =>
    execFile(process.execPath, [TSC, "-p", "test/store/fixtures/cloudflare-types/tsconfig.json"], { cwd: root }, (error, stdout) =>
      resolve(error ? stdout || error.message : ""),
    ),
  );
  assert.equal(output, "");
});
