// `prepare` (npm ci and npm install in a clone, npm pack): runs `npm run build` unless dist/ was built by
// this script from the same inputs (the sources, the build's own files, the installed packages' versions),
// and writes what it built from into dist/.prepared. npm runs `prepare` twice in a clone (for the project,
// then for node_modules/mcp-elicit, the link through which the CLI workspace finds the library) and again
// after every `npm install <pkg>`: the second and later runs leave a fresh dist/ alone instead of building
// again, or deleting it under a test or a command that is using it. `npm run build` always builds.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { inputsHash, STAMP } from "./build-inputs.mjs";

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
