// A Worker in real workerd, as `wrangler dev --local` runs it: the Worker module bundled with esbuild for
// the workerd target (the package's "workerd"/"worker"/"browser" conditions, Node built-ins left to
// nodejs_compat), started by Miniflare on 127.0.0.1 with its Durable Objects persisted to a temporary
// folder, so stopping the runtime and starting it again (restart()) keeps their state, on the same port.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { builtinModules } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import type { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { build, type Metafile, type Plugin } from "esbuild";
import { Miniflare } from "miniflare";
import ts from "typescript";
import { removeOnExit } from "./cleanup.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

/** The package's own entry points (mcp-elicit/server, …) from src/, so a bundle tests the sources, not a stale dist/. */
function ownEntries(): Record<string, string> {
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, { types?: string } | string> };
  const entries: Record<string, string> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    const types = typeof target === "object" ? target.types : undefined;
    if (!types?.startsWith("./dist/") || !types.endsWith(".d.ts")) continue;
    entries[`mcp-elicit${subpath.slice(1)}`] = join(root, "src", types.slice("./dist/".length, -".d.ts".length) + ".ts");
  }
  return entries;
}

/** Node built-ins stay imports for nodejs_compat, always as node:NAME (workerd knows them by that name). */
const nodeBuiltins: Plugin = {
  name: "node-builtins",
  setup(b) {
    const names = new Set(builtinModules);
    b.onResolve({ filter: /^(node:)?[a-z0-9_/]+$/ }, (args) => {
      const bare = args.path.replace(/^node:/, "");
      if (!names.has(bare) && !names.has(bare.split("/")[0]!)) return undefined;
      return { path: `node:${bare}`, external: true };
    });
  },
};

/**
 * The hosted form's scripts, which the build embeds beside the pages (dist/server/url/pages/page-scripts.js)
 * for runtimes without files: a bundle of the sources takes the built copy, as a Worker bundling the package does.
 */
const pageScripts: Plugin = {
  name: "page-scripts",
  setup(b) {
    b.onResolve({ filter: /^\.\/page-scripts\.js$/ }, (args) => {
      if (!args.importer.startsWith(join(root, "src/server/url/pages"))) return undefined;
      const built = join(root, "dist/server/url/pages/page-scripts.js");
      if (!existsSync(built)) return { errors: [{ text: `${built} is missing: build it with \`npm run build\` (npm test builds first)` }] };
      return { path: built };
    });
  },
};

export interface WorkerBundle {
  /** The bundled module's path (in a temporary folder removed when the process exits). */
  path: string;
  code: string;
  metafile: Metafile;
}

export interface BundleOptions {
  minify?: boolean;
  /** Where mcp-elicit/* comes from: "src" (default, what the tests check) or "dist" (what ships: the bench). */
  from?: "src" | "dist";
}

/** Bundles the Worker module `entry` (relative to the repository) for workerd. */
export async function bundleWorker(entry: string, options: BundleOptions = {}): Promise<WorkerBundle> {
  const dir = mkdtempSync(join(tmpdir(), "mcp-elicit-worker-"));
  removeOnExit(dir);
  const path = join(dir, "worker.js");
  const result = await build({
    absWorkingDir: root,
    entryPoints: [resolve(root, entry)],
    outfile: path,
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    conditions: ["workerd", "worker", "browser", "import"],
    mainFields: ["browser", "module", "main"],
    // Without the alias, mcp-elicit resolves as a dependency does: node_modules/mcp-elicit, its exports, dist/.
    ...(options.from === "dist" ? {} : { alias: ownEntries() }),
    plugins: [nodeBuiltins, pageScripts],
    minify: options.minify ?? false,
    metafile: true,
    logLevel: "silent",
  });
  return { path, code: readFileSync(path, "utf8"), metafile: result.metafile };
}

/** The parts of a wrangler.jsonc the local runtime needs. */
export interface WranglerConfig {
  main: string;
  compatibility_date: string;
  compatibility_flags?: string[];
  durable_objects?: { bindings: { name: string; class_name: string }[] };
  migrations?: { tag: string; new_sqlite_classes?: string[]; new_classes?: string[] }[];
  vars?: Record<string, string>;
}

/** Reads a wrangler.jsonc (comments and trailing commas allowed, as wrangler reads it). */
export function readWranglerConfig(path: string): WranglerConfig {
  const { config, error } = ts.parseConfigFileTextToJson(path, readFileSync(resolve(root, path), "utf8"));
  if (error) throw new Error(`${path}: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`);
  return config as WranglerConfig;
}

export interface LocalWorker {
  /** The Worker's origin, http://127.0.0.1:PORT/ (the same across restarts). */
  url: URL;
  /** The bundle it runs. */
  bundle: WorkerBundle;
  /** What the Worker logged (console.* and uncaught errors), for assertions and failure messages. */
  logs: string[];
  /** Stops workerd and starts it again on the same port and Durable Object storage. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts the Worker a wrangler.jsonc describes in workerd (Miniflare) on 127.0.0.1; `bindings` adds
 * variables and secrets (what `.dev.vars` holds under wrangler). Durable Objects live in a temporary
 * folder removed on stop() and when the process exits.
 */
export async function startWorker(
  configPath: string,
  options: { bindings?: Record<string, string>; from?: BundleOptions["from"] } = {},
): Promise<LocalWorker> {
  const config = readWranglerConfig(configPath);
  const bundle = await bundleWorker(join(dirname(configPath), config.main), { from: options.from ?? "src" });
  const persist = mkdtempSync(join(tmpdir(), "mcp-elicit-do-"));
  const forget = removeOnExit(persist);
  const logs: string[] = [];
  // Classes under new_sqlite_classes get SQLite storage (ctx.storage.sql), as on Cloudflare.
  const sqlite = new Set((config.migrations ?? []).flatMap((m) => m.new_sqlite_classes ?? []));
  const durableObjects = Object.fromEntries(
    (config.durable_objects?.bindings ?? []).map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }]),
  );
  const make = (port: number) =>
    new Miniflare({
      // The one bundled module, given as wrangler gives it: with `scriptPath`, Miniflare would parse the
      // bundle for further modules and refuse any import() of a computed name (file-type has one, for its
      // Node-only fileTypeFromFile), though workerd runs such a bundle until that import is called.
      modules: [{ type: "ESModule", path: bundle.path, contents: bundle.code }],
      modulesRoot: dirname(bundle.path),
      compatibilityDate: config.compatibility_date,
      compatibilityFlags: config.compatibility_flags ?? [],
      durableObjects,
      durableObjectsPersist: persist,
      bindings: { ...config.vars, ...options.bindings },
      host: "127.0.0.1",
      port,
      // Nothing from the network: no cf.json download, no telemetry.
      cf: false,
      telemetry: { enabled: false },
      handleRuntimeStdio(stdout: Readable, stderr: Readable) {
        for (const stream of [stdout, stderr]) stream.on("data", (chunk: Buffer) => logs.push(chunk.toString("utf8")));
      },
    });
  let runtime = make(0);
  let url: URL;
  try {
    url = new URL((await runtime.ready).origin + "/");
  } catch (error) {
    // A Worker that fails to start (an error at module scope, say) leaves nothing running behind.
    await runtime.dispose().catch(() => {});
    rmSync(persist, { recursive: true, force: true });
    forget();
    throw error;
  }
  let stopped = false;
  return {
    url,
    bundle,
    logs,
    async restart() {
      await runtime.dispose();
      runtime = make(Number(url.port));
      await runtime.ready;
    },
    async stop() {
      if (stopped) return;
      stopped = true;
      await runtime.dispose();
      rmSync(persist, { recursive: true, force: true });
      forget();
    },
  };
}
