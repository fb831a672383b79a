// Lists the functions of src/ longer than N lines (default 120), longest first: `node scripts/long-functions.mjs [N]`.
// test/lint/function-length.test.ts holds src/ to its limits with the same count.
import ts from "typescript";
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** Every function with a body in the .ts files under `dir`: its length in lines (first to last), file:line and name. */
export function functionLengths(dir = "src") {
  const found = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith(".ts")) continue;
    const file = join(entry.parentPath, entry.name);
    const source = ts.createSourceFile(file, readFileSync(file, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node) => {
      if (ts.isFunctionLike(node) && node.body) {
        const first = source.getLineAndCharacterOfPosition(node.getStart()).line;
        const last = source.getLineAndCharacterOfPosition(node.end).line;
        found.push({ lines: last - first + 1, at: `${file}:${first + 1}`, name: node.name?.getText() ?? "(anonymous)" });
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return found.sort((a, b) => b.lines - a.lines);
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const limit = Number(process.argv[2] ?? 120);
  for (const f of functionLengths().filter((f) => f.lines > limit)) console.log(f.lines, f.at, f.name);
}
