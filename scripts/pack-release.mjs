// The tarballs a release publishes: mcp-elicit (the repository's root) and mcp-elicit-cli (packages/cli),
// each packed from a staging folder that holds what its `files` names and a cleaned package.json.
//
// Why a staging folder: the repository's manifests are for working in the clone (`prepare` builds dist/ on
// `npm ci`, `workspaces`, `overrides`, `allowScripts`, the devDependencies), and npm packs package.json as
// it is: a published `prepare` made every install of mcp-elicit warn about an install script whose file
// (scripts/prepare.mjs) is not in the tarball. Rewriting package.json in place around `npm pack`
// (prepack/postpack) leaves the clone's manifest changed whenever a step fails in between; a copy never
// touches it. clean-publish's clearPackageJSON drops the development fields (its list, kept by its
// authors); we add the clone-only ones. npm packs the staging folder, so `files` still decides what is
// in the tarball, and `npm publish <tarball>` publishes it byte for byte, running no script.
//
//   node scripts/pack-release.mjs [--out DIR]     writes both tarballs into DIR (default: release/)
//
// dist/ must be the build of the sources (npm ci or npm run build made it); the release builds first.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { clearPackageJSON } from "clean-publish/core.js";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");

/** The published packages, by folder: the library first (the CLI depends on it). */
export const PACKAGES = [".", "packages/cli"];

/** Fields that only mean something in the clone, besides clean-publish's list (devDependencies, tool configs). */
const CLONE_ONLY = ["scripts", "workspaces", "overrides", "allowScripts"];

/** The manifest as published: `manifest` without the fields that only mean something in the clone. */
export function publishedManifest(manifest) {
  return clearPackageJSON(manifest, CLONE_ONLY);
}

/** Every path a manifest points at (exports, bin, main, types), "./" and all. */
function targets(manifest) {
  const paths = [];
  const walk = (value) => {
    if (typeof value === "string") paths.push(value);
    else if (value && typeof value === "object") Object.values(value).forEach(walk);
  };
  walk(manifest.exports);
  walk(typeof manifest.bin === "string" ? [manifest.bin] : manifest.bin);
  walk([manifest.main, manifest.types, manifest.typings].filter(Boolean));
  return paths.map((p) => p.replace(/^\.\//, ""));
}

/**
 * What is wrong with a published manifest whose tarball holds `files` (paths inside the package): a script
 * (every one of them runs in the consumer's project or only in ours), a clone-only field, or a path it
 * points at that the tarball lacks. An empty list when nothing is.
 */
export function manifestProblems(manifest, files) {
  const problems = [];
  const held = new Set(files);
  if (manifest.scripts && Object.keys(manifest.scripts).length > 0)
    problems.push(`${manifest.name}: the published manifest has scripts (${Object.keys(manifest.scripts).join(", ")})`);
  for (const field of [...CLONE_ONLY.slice(1), "devDependencies"])
    if (manifest[field] !== undefined) problems.push(`${manifest.name}: the published manifest has ${field}`);
  for (const path of targets(manifest))
    if (!held.has(path)) problems.push(`${manifest.name}: package.json points at ${path}, which the tarball does not hold`);
  return problems;
}

const npm = (args, cwd) => execFileSync("npm", args, { cwd, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });

/**
 * Packs both packages into `outDir` and returns what each tarball is: its name, version, file (absolute),
 * size in bytes and the paths it holds. Throws, naming each problem, when a manifest is not publishable
 * or the CLI does not pin this version of the library. `from` maps a package folder to the folder its
 * files are copied from (the tests pass a fresh build of dist/ this way); by default the package folder.
 */
export function packRelease({ outDir = join(root, "release"), from = {} } = {}) {
  mkdirSync(outDir, { recursive: true });
  const stageRoot = mkdtempSync(join(tmpdir(), "mcp-elicit-release-"));
  try {
    const packed = PACKAGES.map((folder) => {
      const source = join(root, folder);
      const manifest = JSON.parse(readFileSync(join(source, "package.json"), "utf8"));
      const stage = join(stageRoot, manifest.name);
      mkdirSync(stage);
      // What `files` names, at its top level (npm applies the whole list, negations included, when it packs).
      const tops = new Set(["README.md", "LICENSE", ...manifest.files.filter((f) => !f.startsWith("!")).map((f) => f.split("/")[0])]);
      for (const top of tops) {
        const path = join(from[folder] && top === "dist" ? from[folder] : source, top);
        if (existsSync(path)) cpSync(path, join(stage, top), { recursive: true });
      }
      const published = publishedManifest(manifest);
      writeFileSync(join(stage, "package.json"), `${JSON.stringify(published, null, 2)}\n`);
      const [info] = JSON.parse(npm(["pack", "--json", "--ignore-scripts", "--pack-destination", resolve(outDir)], stage));
      const files = info.files.map((f) => f.path);
      const problems = manifestProblems(published, files);
      if (problems.length > 0) throw new Error(`not publishable:\n- ${problems.join("\n- ")}`);
      return {
        name: info.name,
        version: info.version,
        tarball: join(resolve(outDir), info.filename),
        size: info.size,
        files,
        manifest: published,
      };
    });
    const [library, cli] = packed;
    if (cli.manifest.dependencies?.["mcp-elicit"] !== library.version)
      throw new Error(
        `not publishable: mcp-elicit-cli depends on mcp-elicit ${cli.manifest.dependencies?.["mcp-elicit"]}, not ${library.version}`,
      );
    return packed;
  } finally {
    rmSync(stageRoot, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const at = process.argv.indexOf("--out");
  for (const { tarball, size, files } of packRelease(at > 0 ? { outDir: resolve(process.argv[at + 1]) } : {}))
    console.log(`${tarball}  ${(size / 1024).toFixed(1)} kB, ${files.length} files`);
}
