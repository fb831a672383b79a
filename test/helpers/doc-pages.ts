// The documentation pages the docs tests read: README.md, CONTRIBUTING.md and docs/**/*.md.
import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../../", import.meta.url));

/** Files under `dir` (relative to the repository, with / separators) whose name passes `keep`, sorted. */
export function filesUnder(dir: string, keep: (name: string) => boolean = () => true): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && keep(e.name))
    .map((e) => relative(root, join(e.parentPath, e.name)).split("\\").join("/"))
    .sort();
}

export const read = (path: string): string => readFileSync(join(root, path), "utf8");

export const PAGES = ["README.md", "CONTRIBUTING.md", ...filesUnder("docs", (n) => n.endsWith(".md"))];
