// Bundles the browser code of the web surface with esbuild: each entry becomes one self-contained ESM file
// in dist/web/ (lit, the schema engine and the sanitizer included), so a host serves one file and installs
// nothing. Each element also has a file of its own (dist/web/elements/NAME.js) with only what it uses.
// Run by `npm run build`; tests and the bench import `buildWeb` to build the same way.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const schemaDir = join(root, "src/schema");

/** The bundles: source entry (from the repository root) -> output file (in dist/web/). */
export const WEB_ENTRIES = [
  // The three elements in one file (first: the browser tests read its size from the first output).
  { in: "src/ui/web/elements/index.ts", out: "elements" },
  // One element each: only the URL consent carries the link analysis and tldts' public suffix list.
  { in: "src/ui/web/elements/entries/form.ts", out: "elements/form" },
  { in: "src/ui/web/elements/entries/url-consent.ts", out: "elements/url-consent" },
  { in: "src/ui/web/elements/entries/sampling-review.ts", out: "elements/sampling-review" },
  // The page webUI() serves; it finds the elements in elements.js, loaded next to it.
  { in: "src/ui/web/page/main.ts", out: "page" },
  // The URL kit's hosted form page (src/server/url/pages/form.ts); it finds the form in elements/form.js.
  { in: "src/server/url/pages/browser/form-page.ts", out: "url-form" },
  { in: "src/server/url/pages/browser/file-page.ts", out: "url-file" },
  // The kit's form app (an MCP App), inlined into the ui://elicit/form-app.html resource (src/server/apps/).
  { in: "src/ui/web/app/form-app.ts", out: "form-app" },
];

// The one Node module the shared code imports (`domainToUnicode` in the URL analysis) has a browser
// equivalent in src/ui/web/elements/domain-to-unicode.ts; any other `node:` import is a mistake in a
// browser bundle and fails the build instead of failing in a person's browser. The same for zod.
const nodeSeams = {
  name: "node-seams",
  setup(b) {
    b.onResolve({ filter: /^node:/ }, (args) => {
      if (args.path === "node:url") return { path: join(root, "src/ui/web/elements/domain-to-unicode.ts") };
      return { errors: [{ text: `${args.path} cannot be bundled for the browser (imported by ${args.importer})` }] };
    });
    // The schema engine reaches fromZod (src/schema/zod.ts) through normalize(); an element only gets JSON schemas,
    // so the browser gets src/ui/web/elements/no-zod.ts instead, and zod itself (about 7 kB gzipped) never loads.
    b.onResolve({ filter: /^\.\/zod\.js$/ }, (args) => {
      if (args.importer.startsWith(schemaDir)) return { path: join(root, "src/ui/web/elements/no-zod.ts") };
      return undefined;
    });
    // zod's translations of its messages (about 150 kB): the form app's messages are checked, never shown in
    // another language, and nothing reads `z.locales`; zod's default English ones stay (locales/en.js).
    b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(join("node_modules", "zod")) ? { path: "zod-locales", namespace: "empty" } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: "empty" }, () => ({ contents: "export {};", loader: "js" }));
    // The MCP Apps SDK (the form app's only library besides Lit) checks its messages with zod: allowed there alone.
    b.onResolve({ filter: /^zod(\/|$)/ }, (args) =>
      args.importer.includes(`${join("node_modules", "@modelcontextprotocol")}`)
        ? undefined
        : { errors: [{ text: `zod cannot be bundled for the browser (imported by ${args.importer})` }] },
    );
  },
};

/**
 * Builds the bundles into `outdir` (default dist/web). Returns each output file with its size in bytes and its inputs.
 * @param {{ outdir?: string, entries?: { in: string, out: string }[] }} [options]
 */
export async function buildWeb(options = {}) {
  const outdir = options.outdir ?? join(root, "dist/web");
  const entries = options.entries ?? WEB_ENTRIES;
  const result = await build({
    absWorkingDir: root,
    entryPoints: entries.map((e) => ({ in: join(root, e.in), out: e.out })),
    outdir,
    bundle: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    minify: true,
    legalComments: "none",
    metafile: true,
    logLevel: "warning",
    plugins: [nodeSeams],
  });
  // `inputs`: the source files inside each output (repository-relative), so a test can tell what a file carries.
  return Object.entries(result.metafile.outputs).map(([file, out]) => ({
    file: join(root, file),
    bytes: out.bytes,
    inputs: Object.keys(out.inputs),
  }));
}

/**
 * The hosted form's scripts as a module beside the pages' code (dist/server/url/pages/page-scripts.js), for
 * runtimes without files (Workers): src/server/url/pages/assets.ts imports it when dist/web/ cannot be read.
 */
export function embedPageScripts(webDir = join(root, "dist/web"), pagesDir = join(root, "dist/server/url/pages")) {
  const scripts = Object.fromEntries(
    ["elements/form.js", "url-form.js", "url-file.js", "form-app.js"].map((file) => [file, readFileSync(join(webDir, file), "utf8")]),
  );
  mkdirSync(pagesDir, { recursive: true });
  writeFileSync(
    join(pagesDir, "page-scripts.js"),
    `// Written by scripts/build-web.mjs: the hosted form's scripts, for runtimes without files.\nexport default ${JSON.stringify(scripts)};\n`,
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  for (const { file, bytes } of await buildWeb()) console.log(`${file.slice(root.length + 1)}  ${(bytes / 1024).toFixed(1)} kB`);
  embedPageScripts();
}
