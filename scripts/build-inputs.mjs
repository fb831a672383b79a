// What dist/ is built from, for scripts/prepare.mjs (which writes it into dist/.prepared after a build) and for
// the tests that need a build of the current sources (test/package/pack.test.ts uses dist/ when it is one).
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The file `npm run build` leaves beside dist/'s files (through prepare.mjs): the inputs' hash it was built from. */
export const STAMP = join(root, "dist", ".prepared");

/** Files under `dir`, relative to the root, sorted. */
const filesUnder = (dir) =>
  readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => relative(root, join(e.parentPath ?? e.path, e.name)))
    .sort();

/** name@version of every package at the top of node_modules: what the compiler and the bundles come from. */
function installed() {
  const modules = join(root, "node_modules");
  if (!existsSync(modules)) return [];
  const names = readdirSync(modules).flatMap((n) =>
    n.startsWith("@") ? readdirSync(join(modules, n)).map((m) => `${n}/${m}`) : n.startsWith(".") ? [] : [n],
  );
  return names.sort().map((name) => {
    try {
      return `${name}@${JSON.parse(readFileSync(join(modules, name, "package.json"), "utf8")).version}`;
    } catch {
      return name;
    }
  });
}

/** The hash of the build's inputs: the sources, the build's own files, the installed packages' versions. */
export function inputsHash() {
  const hash = createHash("sha256");
  for (const file of [...filesUnder("src"), "scripts/build-web.mjs", "tsconfig.json", "tsconfig.build.json"]) {
    hash
      .update(`${file}\0`)
      .update(readFileSync(join(root, file)))
      .update("\0");
  }
  hash.update(installed().join("\n"));
  return hash.digest("hex");
}

/** Whether dist/ is the build of the current inputs (prepare.mjs stamped it with their hash). */
export function distIsCurrent() {
  return existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === inputsHash();
}
