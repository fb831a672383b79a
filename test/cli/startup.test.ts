// `elicit --help` loads commander and nothing else from node_modules: main.ts imports each command's
// module when that command runs. When it imported them all up front, help loaded the terminal UI, the
// SDK, the bundled servers and openai, and took 2-5 s on the 2-core machine instead of well under one.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { BIN } from "../helpers/cli.js";

/** The packages `elicit ARGS` resolves (a loader hook logs every URL the ESM loader resolves), with its stdout. */
async function packagesLoadedBy(args: string[]): Promise<{ packages: string[]; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), "elicit-startup-"));
  try {
    const log = join(dir, "resolved.txt");
    writeFileSync(log, "");
    writeFileSync(
      join(dir, "hook.mjs"),
      `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const result = await next(specifier, context);
  appendFileSync(${JSON.stringify(log)}, result.url + "\\n");
  return result;
}`,
    );
    writeFileSync(
      join(dir, "register.mjs"),
      `import { register } from "node:module";\nregister(${JSON.stringify(pathToFileURL(join(dir, "hook.mjs")).href)});`,
    );
    const { stdout } = await promisify(execFile)(process.execPath, [
      "--import",
      pathToFileURL(join(dir, "register.mjs")).href,
      BIN,
      ...args,
    ]);
    const packages = new Set<string>();
    for (const line of readFileSync(log, "utf8").split("\n")) {
      const at = line.lastIndexOf("node_modules/");
      const name = at >= 0 ? /^(?:@[^/]+\/)?[^/]+/.exec(line.slice(at + "node_modules/".length))?.[0] : undefined;
      if (name) packages.add(name);
    }
    return { packages: [...packages].sort(), stdout };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

test("elicit --help and elicit serve --help load commander alone", async () => {
  for (const args of [["--help"], ["serve", "--help"]]) {
    const { packages, stdout } = await packagesLoadedBy(args);
    assert.match(stdout, /^Usage: elicit /m);
    assert.deepEqual(packages, ["commander"], `elicit ${args.join(" ")}`);
  }
});

test("a command loads its own modules when it runs: elicit lint loads no terminal UI, SDK, model or sign-in package", async () => {
  const dir = mkdtempSync(join(tmpdir(), "elicit-startup-lint-"));
  try {
    const form = join(dir, "form.json");
    writeFileSync(form, JSON.stringify({ type: "object", properties: { age: { type: "integer", minimum: 18 } } }));
    const { packages } = await packagesLoadedBy(["lint", form]);
    assert.ok(packages.includes("commander"), packages.join(", "));
    for (const name of ["@inquirer/prompts", "ora", "open", "openai", "oidc-provider", "@modelcontextprotocol/client"])
      assert.ok(!packages.includes(name), `elicit lint loads ${name}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
