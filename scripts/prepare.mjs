// `prepare` (npm ci and npm install in a clone, npm pack): runs `npm run build` unless dist/ was built by
// this script from the same inputs (the sources, the build's own files, the installed packages' versions),
// and writes what it built from into dist/.prepared. npm runs `prepare` twice in a clone (for the project,
// then for node_modules/mcp-elicit, the link through which the CLI workspace finds the library) and again
// after every `npm install <pkg>`: the second and later runs leave a fresh dist/ alone instead of building
// again, or deleting it under a test or a command that is using it. `npm run build` always builds.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = join(root, "dist", ".prepared");

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

function inputsHash() {
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

const hash = inputsHash();
if (existsSync(STAMP) && readFileSync(STAMP, "utf8").trim() === hash) {
  console.log("prepare: dist/ is up to date (built from the same sources and packages); not rebuilt");
} else {
  const npm = process.env.npm_execpath;
  // Through the npm that runs us when there is one (npm_execpath), else the npm on PATH.
  const build = npm
    ? spawnSync(process.execPath, [npm, "run", "build"], { stdio: "inherit" })
    : spawnSync("npm", ["run", "build"], { stdio: "inherit" });
  if (build.status !== 0) process.exit(build.status ?? 1);
  writeFileSync(STAMP, `${hash}\n`);
}
