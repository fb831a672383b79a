// `npm run release`: the one command a maintainer runs to release mcp-elicit and mcp-elicit-cli together
// (docs/release.md). In order, stopping at the first failure:
//   0. A real release starts from a clean working tree (what is published is what is committed).
//   1. `changeset version`, when changesets are pending: both packages get the next version (they are
//      `fixed` together in .changeset/config.json), their CHANGELOG.md the changesets' text, and the CLI's
//      pin on the library the new version; then the lockfile is brought up to date with it, and all of it
//      is committed ("Release X.Y.Z"), so that the tags of step 4 name that commit.
//   2. `npm run build`: dist/ from the sources as they now are.
//   3. scripts/pack-release.mjs: both tarballs into release/, with published manifests that carry no
//      script, and checked (every path a manifest points at is in its tarball).
//   4. `npm publish <tarball>` for each version not on the registry yet, the library first; then
//      `changeset tag` tags the commit (mcp-elicit@X.Y.Z, mcp-elicit-cli@X.Y.Z).
//
//   npm run release -- --dry-run      everything but the commit, the upload and the tags (npm publish --dry-run);
//                                     the version changes stay in the working tree (git checkout -- . undoes them)
//   npm run release -- --tag next     publish under another dist-tag than latest
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packRelease } from "./pack-release.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const args = process.argv.slice(2);
const dryRun = args.includes("--dry-run");
const tag = args.includes("--tag") ? args[args.indexOf("--tag") + 1] : undefined;

const run = (command, commandArgs) => {
  console.log(`release: ${command} ${commandArgs.join(" ")}`);
  execFileSync(command, commandArgs, { cwd: root, stdio: "inherit" });
};

const git = (gitArgs) => execFileSync("git", gitArgs, { cwd: root, encoding: "utf8" });
if (!dryRun && git(["status", "--porcelain"]).trim() !== "") {
  console.error("release: the working tree has uncommitted changes; commit or stash them first (or add --dry-run)");
  process.exit(1);
}

const pending = readdirSync(join(root, ".changeset")).filter((f) => f.endsWith(".md") && f !== "README.md");
if (pending.length > 0) {
  run("npx", ["changeset", "version"]);
  run("npm", ["install", "--package-lock-only", "--ignore-scripts", "--no-audit", "--no-fund"]);
  if (!dryRun) {
    const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    run("git", ["add", "-A", ".changeset", "package.json", "package-lock.json", "CHANGELOG.md", "packages/cli"]);
    run("git", ["commit", "-m", `Release ${version}: mcp-elicit and mcp-elicit-cli`]);
  }
} else console.log("release: no pending changesets; releasing the versions in package.json as they are");

run("npm", ["run", "build"]);
const packed = packRelease();
for (const { tarball, size, files } of packed) console.log(`release: ${tarball} (${(size / 1024).toFixed(1)} kB, ${files.length} files)`);

let published = 0;
for (const { name, version, tarball } of packed) {
  let onRegistry = "";
  try {
    onRegistry = execFileSync("npm", ["view", `${name}@${version}`, "version"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    // E404: never published, the first release.
  }
  if (onRegistry === version) {
    console.log(`release: ${name}@${version} is on the registry already; not published again`);
    continue;
  }
  run("npm", ["publish", tarball, "--access", "public", ...(tag ? ["--tag", tag] : []), ...(dryRun ? ["--dry-run"] : [])]);
  published += 1;
}
if (published > 0 && !dryRun) run("npx", ["changeset", "tag"]);
console.log(
  dryRun
    ? "release: dry run: nothing was uploaded or tagged"
    : "release: done. Push the release commit and its tags: git push --follow-tags",
);
