// The public declarations in a project of one's own, on the TypeScript a user has: the library packed as npm
// packs it, installed with the terminal renderer's line and @types/node into a fresh project (as the README
// and "set up a project" say), then a file that imports every entry point of package.json's exports and the
// README's quickstart server and host, compiled with `strict` (declarations checked too: no skipLibCheck) by
// TypeScript 5.9 (`typescript`) and TypeScript 7 (`typescript7`, npm's `latest`), for "module": "nodenext"
// (the documented tsconfig, examples/project/tsconfig.json) and for a bundler. Two more cases show why the
// page says what it says: without `types: ["node"]` TypeScript 7 loads no @types package, and the
// declarations' Buffer and node:http are unknown; in a package npm init -y writes ("type": "commonjs"), the
// quickstart's top-level await is refused. Needs the npm registry (or npm's cache) for the install.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { distIsCurrent } from "../../scripts/build-inputs.mjs";
import { buildWeb } from "../../scripts/build-web.mjs";
import { installLine, OPTIONAL_PEERS } from "../../src/common/optional-peers.js";
import { removeOnExit } from "../helpers/cleanup.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { exports: Record<string, unknown> };

/** The two compilers: the one the project builds with, and npm's `latest`. */
const COMPILERS = {
  "TypeScript 5.9": join(root, "node_modules", "typescript", "bin", "tsc"),
  "TypeScript 7": join(root, "node_modules", "typescript7", "bin", "tsc"),
};

/** Every entry point a project can import (the browser bundles' types and the command's included). */
const ENTRIES = Object.keys(pkg.exports)
  .filter((e) => e !== "./package.json")
  .map((e) => `mcp-elicit${e.slice(1)}`);

// Without npm's own variables (set when npm test runs us), npm in the scratch project works on it alone.
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k) && k !== "INIT_CWD"));

async function run(command: string, args: string[], cwd: string, timeout = 150_000) {
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout, maxBuffer: 64 << 20 });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(" ")} failed: ${e.message}\n${e.stdout ?? ""}\n${e.stderr ?? ""}`);
  }
}

/** Runs a compiler in `cwd` on its tsconfig.json (never emitting); resolves to its exit code and output. */
function tsc(compiler: string, cwd: string, project = "tsconfig.json"): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [compiler, "-p", project, "--noEmit"], { cwd, env, maxBuffer: 64 << 20 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

let dir: string;
/** The consumer project: `"type": "module"`, mcp-elicit, the terminal renderer's packages, @types/node. */
let app: string;

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-elicit-consumer-types-"));
  removeOnExit(dir);
  // The library as npm packs it, from a staging folder, so that dist/ in the repository is neither packed
  // stale nor rebuilt under other test files (as test/package/pack.test.ts does).
  const stage = join(dir, "pkg");
  mkdirSync(stage);
  for (const file of ["package.json", "README.md", "LICENSE"]) copyFileSync(join(root, file), join(stage, file));
  if (distIsCurrent()) cpSync(join(root, "dist"), join(stage, "dist"), { recursive: true });
  else {
    // As `npm run build` builds it.
    await run(
      process.execPath,
      [COMPILERS["TypeScript 7"], "-p", join(root, "tsconfig.build.json"), "--outDir", join(stage, "dist")],
      root,
    );
    await buildWeb({ outdir: join(stage, "dist", "web") });
  }
  const packed = JSON.parse((await run("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", dir], stage)).stdout) as {
    filename: string;
  }[];

  app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "module" }));
  // What the pages say each entry point needs: every optional peer's install line (installLine), as a
  // project that imports all of them has it.
  const peers = new Set(
    Object.keys(OPTIONAL_PEERS).flatMap((what) =>
      installLine(what as keyof typeof OPTIONAL_PEERS)
        .split(" ")
        .slice(2),
    ),
  );
  await run(
    "npm",
    ["install", join(dir, packed[0]!.filename), ...peers, "@types/node", "--prefer-offline", "--no-audit", "--no-fund"],
    app,
  );
  copyFileSync(join(root, "examples", "project", "tsconfig.json"), join(app, "tsconfig.json"));
  for (const file of ["quickstart-server.ts", "quickstart-host.ts"]) copyFileSync(join(root, "examples", file), join(app, file));
  writeFileSync(
    join(app, "entries.ts"),
    `${ENTRIES.map((e, i) => `import type * as entry${i} from "${e}";`).join("\n")}\n\nexport type Entries = [${ENTRIES.map((_, i) => `typeof entry${i}`).join(", ")}];\n`,
  );
  // A bundler's project: the same files, resolved as Vite or esbuild resolve them.
  writeFileSync(
    join(app, "tsconfig.bundler.json"),
    JSON.stringify({ extends: "./tsconfig.json", compilerOptions: { module: "preserve", moduleResolution: "bundler" } }),
  );
  // The README's quickstart alone (openai's declarations, which entries.ts loads, reference Node's types
  // themselves), with the documented config and with the same config but `types`.
  writeFileSync(join(app, "tsconfig.quickstart.json"), JSON.stringify({ extends: "./tsconfig.json", files: ["quickstart-host.ts"] }));
  const { compilerOptions } = JSON.parse(readFileSync(join(app, "tsconfig.json"), "utf8")) as { compilerOptions: Record<string, unknown> };
  writeFileSync(
    join(app, "tsconfig.no-types.json"),
    JSON.stringify({ compilerOptions: { ...compilerOptions, types: undefined }, files: ["quickstart-host.ts"] }),
  );
  // The same project as npm init -y leaves it: "type": "commonjs" (its packages shared with the first).
  const cjs = join(dir, "app-commonjs");
  mkdirSync(cjs);
  writeFileSync(join(cjs, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", type: "commonjs" }));
  symlinkSync(join(app, "node_modules"), join(cjs, "node_modules"), "dir");
  for (const file of ["quickstart-server.ts", "quickstart-host.ts", "tsconfig.json"]) copyFileSync(join(app, file), join(cjs, file));
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the documented project compiles the public declarations", { concurrency: 2 }, () => {
  for (const [name, compiler] of Object.entries(COMPILERS)) {
    for (const [resolution, project] of [
      ["nodenext", "tsconfig.json"],
      ["bundler", "tsconfig.bundler.json"],
    ] as const) {
      test(`${name}, ${resolution}: every entry point and the quickstart, strict`, async () => {
        assert.ok(existsSync(compiler), `${compiler}: npm ci installs both compilers`);
        const { code, output } = await tsc(compiler, app, project);
        assert.equal(output, "");
        assert.equal(code, 0);
      });
    }
  }
});

test('TypeScript 7 and the quickstart: compiles with the documented `types: ["node"]`; without it the declarations\' Node types are unknown', async () => {
  assert.deepEqual(await tsc(COMPILERS["TypeScript 7"], app, "tsconfig.quickstart.json"), { code: 0, output: "" });
  const without = await tsc(COMPILERS["TypeScript 7"], app, "tsconfig.no-types.json");
  assert.notEqual(without.code, 0);
  assert.match(without.output, /node_modules\/mcp-elicit\/dist\/[^(]+\.d\.ts\(\d+,\d+\): error TS2591: Cannot find name 'Buffer'/);
  // TypeScript 5.9 still loads every @types package it finds, so the same project compiled there.
  assert.deepEqual(await tsc(COMPILERS["TypeScript 5.9"], app, "tsconfig.no-types.json"), { code: 0, output: "" });
});

test('"type": "commonjs", as npm init -y writes it: the quickstart\'s top-level await is refused', async () => {
  for (const compiler of Object.values(COMPILERS)) {
    const { code, output } = await tsc(compiler, join(dir, "app-commonjs"));
    assert.notEqual(code, 0);
    assert.match(
      output,
      /quickstart-host\.ts\(\d+,\d+\): error TS1309: The current file is a CommonJS module and cannot use 'await' at the top level\./,
    );
  }
});
