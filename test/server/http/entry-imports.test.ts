// What a Worker bundles from mcp-elicit/server and mcp-elicit/cloudflare: esbuild follows every import from the
// entry's source (the SDK and other packages included), as a Worker's bundler would, and no Node-only serving
// module may be on the way: no node:http, no Node streams, no sockets, no async_hooks (serveHttp and the fleet
// live in mcp-elicit/node). node:crypto, node:events, node:fs and node:url may be (Workers have them with
// nodejs_compat; node:fs is read only for the hosted form's scripts, see docs/server/serve-http.md).
import { test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const NODE_ONLY = [
  "node:http",
  "node:https",
  "node:http2",
  "node:net",
  "node:tls",
  "node:stream",
  "node:async_hooks",
  "node:child_process",
  "node:worker_threads",
];

/** The node: modules reached from `entry`, each with one importer. */
async function nodeModulesOf(entry: string): Promise<Map<string, string>> {
  const result = await build({
    entryPoints: [entry],
    absWorkingDir: root,
    bundle: true,
    write: false,
    metafile: true,
    platform: "neutral",
    format: "esm",
    // As wrangler resolves for a Worker (and test/helpers/workerd.ts): a package's browser build where it has one
    // (debug, under file-type's zip reader, picks tty and util only in its Node build).
    mainFields: ["browser", "module", "main"],
    conditions: ["workerd", "worker", "browser", "import"],
    external: ["node:*", "better-sqlite3", "redis", "openid-client"],
    logLevel: "silent",
  });
  const found = new Map<string, string>();
  for (const [file, input] of Object.entries(result.metafile.inputs))
    for (const imported of input.imports)
      if (imported.path.startsWith("node:") && !found.has(imported.path)) found.set(imported.path, file);
  return found;
}

for (const entry of ["src/server/index.ts", "src/cloudflare/index.ts"]) {
  test(`${entry} reaches no Node-only serving module`, async () => {
    const found = await nodeModulesOf(entry);
    const forbidden = NODE_ONLY.filter((name) => found.has(name)).map((name) => `${name} (from ${found.get(name)})`);
    assert.deepEqual(forbidden, []);
  });
}

test("src/node/index.ts does reach node:http (the check sees what it looks for)", async () => {
  assert.ok((await nodeModulesOf("src/node/index.ts")).has("node:http"));
});

test("where dist/web/ cannot be read (a Worker), the hosted form's scripts come from the copy the build embeds", async (t) => {
  // The pages' asset module, alone in a folder with the embedded copy: no dist/web/ beside it.
  const alone = mkdtempSync(join(tmpdir(), "pages-alone-"));
  t.after(() => rmSync(alone, { recursive: true, force: true }));
  const pages = join(root, "dist/server/url/pages");
  for (const file of ["assets.js", "styles.js", "page-scripts.js"]) copyFileSync(join(pages, file), join(alone, file));
  const { asset } = (await import(
    pathToFileURL(join(alone, "assets.js")).href
  )) as typeof import("../../../src/server/url/pages/assets.js");
  assert.equal((await asset("form.js"))?.body, readFileSync(join(root, "dist/web/elements/form.js"), "utf8"));
  assert.equal((await asset("url-form.js"))?.body, readFileSync(join(root, "dist/web/url-form.js"), "utf8"));
  assert.equal((await asset("url-file.js"))?.body, readFileSync(join(root, "dist/web/url-file.js"), "utf8"));
});
