// Copies the checked examples into what shows them, so a shown example is never out of date:
//   - each region of a file in examples/ (`//#region NAME` ... `//#endregion NAME`) into the JSDoc `@example`
//     blocks of src/ that name it: a line ` * @example`, then ` * ```ts region=examples/FILE.ts#NAME`, the
//     region's lines, and ` * ``` `;
//   - each file or region into the pages' example blocks (README.md, docs/**/*.md): `<!-- example: PATH -->` or
//     `<!-- example: PATH#NAME -->` on the line before the fence. A whole file is shown without its region markers.
// The format is described in docs/_meta/CONVENTIONS.md.
//   node scripts/sync-examples.mjs           rewrites every block that differs, and names it
//   node scripts/sync-examples.mjs --check   rewrites nothing; names each out-of-date block and exits 1 if any
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

export const root = fileURLToPath(new URL("../", import.meta.url));

const OPEN = /^(\s*)\/\/#region ([A-Za-z0-9_-]+)\s*$/;
const CLOSE = /^(\s*)\/\/#endregion ([A-Za-z0-9_-]+)\s*$/;
const MARKER = /^\s*\/\/#(end)?region\b/;

/** The regions of an example file, by name: their lines without the markers, dedented to the opening marker. */
export function regionsOf(text, file = "example") {
  const lines = text.split("\n");
  const open = new Map();
  const regions = new Map();
  lines.forEach((line, i) => {
    const start = OPEN.exec(line);
    if (start) {
      if (open.has(start[2]) || regions.has(start[2])) throw new Error(`${file}:${i + 1}: region ${start[2]} is opened twice`);
      open.set(start[2], { indent: start[1], from: i + 1 });
      return;
    }
    const end = CLOSE.exec(line);
    if (!end) return;
    const at = open.get(end[2]);
    if (!at) throw new Error(`${file}:${i + 1}: #endregion ${end[2]} closes no open region`);
    open.delete(end[2]);
    const body = lines.slice(at.from, i).filter((l) => !MARKER.test(l));
    regions.set(
      end[2],
      body
        .map((l, j) => {
          if (l.trim() === "") return "";
          if (!l.startsWith(at.indent))
            throw new Error(`${file}:${at.from + j + 1}: a line of region ${end[2]} is indented less than its #region`);
          return l.slice(at.indent.length);
        })
        .join("\n"),
    );
  });
  for (const [name, at] of open) throw new Error(`${file}:${at.from}: region ${name} is never closed (//#endregion ${name})`);
  return regions;
}

/** An example file as a page shows it whole: the region marker lines left out. */
export const withoutMarkers = (text) =>
  text
    .split("\n")
    .filter((l) => !MARKER.test(l))
    .join("\n");

/** Reads examples relative to the repository; `ref` is `examples/FILE` or `examples/FILE#NAME`. */
export function exampleReader(base = root) {
  const cache = new Map();
  return (ref) => {
    const [path, name] = ref.split("#");
    if (!path.startsWith("examples/")) throw new Error(`${ref}: examples come from examples/`);
    if (!cache.has(path)) cache.set(path, readFileSync(join(base, path), "utf8"));
    const text = cache.get(path);
    if (name === undefined) return withoutMarkers(text);
    const region = regionsOf(text, path).get(name);
    if (region === undefined) throw new Error(`${ref}: ${path} has no region ${name}`);
    return region;
  };
}

/**
 * The source file with each `@example` block that names a region replaced by that region.
 * Returns the new text and the blocks that differed ({ line, ref }, line 1-based in the old text).
 */
export function syncSource(text, read, file = "source") {
  const lines = text.split("\n");
  const out = [];
  const stale = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    out.push(line);
    const fence = /^(\s*)\* ```ts region=(\S+)\s*$/.exec(line);
    if (!fence) continue;
    if (!/^\s*\* @example\s*$/.test(lines[i - 1] ?? ""))
      throw new Error(`${file}:${i + 1}: a region block must follow a line " * @example"`);
    const close = lines.findIndex((l, j) => j > i && /^\s*\* ```\s*$/.test(l));
    if (close === -1) throw new Error(`${file}:${i + 1}: the @example block of ${fence[2]} is not closed with " * \`\`\`"`);
    const region = read(fence[2]);
    if (region.includes("*/")) throw new Error(`${fence[2]} holds "*/", which would end the comment it is copied into`);
    const body = region.split("\n").map((l) => (l === "" ? `${fence[1]}*` : `${fence[1]}* ${l}`));
    if (lines.slice(i + 1, close).join("\n") !== body.join("\n")) stale.push({ line: i + 1, ref: fence[2] });
    out.push(...body, lines[close]);
    i = close;
  }
  return { text: out.join("\n"), stale };
}

/** The page with each example block replaced by its file (markers left out) or region. */
export function syncPage(text, read) {
  const stale = [];
  const next = text.replace(/(<!-- example: (\S+) -->\n```[a-z]*\n)([\s\S]*?)(```\n)/g, (_all, head, ref, body, tail, offset) => {
    const want = read(ref);
    const expected = want.endsWith("\n") ? want : `${want}\n`;
    if (body !== expected) stale.push({ line: text.slice(0, offset).split("\n").length, ref });
    return head + expected + tail;
  });
  return { text: next, stale };
}

function filesUnder(dir, keep, base) {
  return readdirSync(join(base, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => relative(base, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

/** Syncs (or, with check, only compares) every source and page; returns each out-of-date block as "file:line: ref". */
export function syncAll({ check = false, base = root } = {}) {
  const read = exampleReader(base);
  const sources = filesUnder("src", (n) => n.endsWith(".ts") && !n.endsWith(".d.ts"), base);
  const pages = ["README.md", ...filesUnder("docs", (n) => n.endsWith(".md"), base)];
  const report = [];
  for (const [files, sync, what] of [
    [sources, (t, f) => syncSource(t, read, f), "@example"],
    [pages, (t) => syncPage(t, read), "example block"],
  ]) {
    for (const file of files) {
      const text = readFileSync(join(base, file), "utf8");
      const { text: next, stale } = sync(text, file);
      for (const s of stale) report.push(`${file}:${s.line}: ${what} from ${s.ref} is out of date`);
      if (!check && next !== text) writeFileSync(join(base, file), next);
    }
  }
  return report;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const check = process.argv.includes("--check");
  try {
    const report = syncAll({ check });
    for (const line of report) console.log(line);
    if (check && report.length > 0) {
      console.log(`${report.length} out of date: run node scripts/sync-examples.mjs`);
      process.exitCode = 1;
    } else if (report.length === 0) console.log("Every @example and example block matches its file.");
    else console.log(`Rewrote ${report.length}.`);
  } catch (error) {
    console.error(`sync-examples: ${error.message}`);
    process.exitCode = 1;
  }
}
