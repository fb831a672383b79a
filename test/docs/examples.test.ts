// The documentation's examples are files: every file in examples/ is shown verbatim on a page
// (README.md or docs/**/*.md; `<!-- example: examples/FILE -->`, the file without its `//#region` marker lines,
// or `<!-- example: examples/FILE#NAME -->`, one region of it), compiled by the type-check (tsconfig.json
// includes examples/), and run here with its output compared. A TypeScript example prints what its `// -> ...` comments say; one
// that serves instead is run by the command of a console block, or by its own test below.
// A console block marked <!-- output --> (or <!-- output, exit N -->) is run as written after its `$ `
// line, `npx elicit` being the built bin, and must print the block's other lines on stdout.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { exampleReader } from "../../scripts/sync-examples.mjs";
import { BIN } from "../helpers/cli.js";
import { filesUnder, PAGES, read, root } from "../helpers/doc-pages.js";

const run = promisify(execFile);

/** Every `<!-- example: path -->` block of every page. */
const blocks = PAGES.flatMap((page) =>
  [...read(page).matchAll(/<!-- example: (\S+) -->\n```[a-z]*\n([\s\S]*?)```\n/g)].map(([, path, body]) => ({ page, path: path!, body: body! })),
);

/** Every console block with an expected output. */
const consoles = PAGES.flatMap((page) =>
  [...read(page).matchAll(/<!-- output(?:, exit (\d+))? -->\n```console\n\$ (.*)\n([\s\S]*?)```\n/g)].map(([, exit, command, output]) => ({
    page,
    command: command!,
    output: output!,
    exit: Number(exit ?? 0),
  })),
);

const examples = filesUnder("examples");
const expectedLines = (path: string) => [...read(path).matchAll(/\/\/ -> (.*)$/gm)].map((m) => m[1]!);
const printing = examples.filter((p) => p.endsWith(".ts") && expectedLines(p).length > 0);
const serving = examples.filter((p) => p.endsWith(".ts") && expectedLines(p).length === 0);

/** Splits a shell command line: words, 'single-quoted' and "double-quoted" strings. */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|"((?:[^"\\]|\\.)*)"|(\S+)/g)].map((m) => m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3]!);
}

describe("pages show examples verbatim", () => {
  test("each example block is a verbatim copy of its file or region", () => {
    assert.ok(blocks.length >= 10, `only ${blocks.length} example blocks`);
    const shown = exampleReader(root);
    for (const { page, path, body } of blocks) {
      const want = shown(path);
      assert.equal(body, want.endsWith("\n") ? want : `${want}\n`, `${page}: ${path} differs from its copy (node scripts/sync-examples.mjs copies it)`);
    }
  });

  test("every file in examples/ is shown whole on a page", () => {
    const shown = new Set(blocks.map((b) => b.path));
    assert.deepEqual(examples.filter((p) => !shown.has(p)), []);
  });

  test("every example that prints nothing serves, and a test runs it", () => {
    const byConsole = serving.filter((p) => consoles.some((c) => c.command.includes(p)));
    // examples/web-embed.ts and examples/oauth-host.ts wait for a person in a browser: test/web/example.test.ts
    // and test/client/oauth-example.test.ts run them with Chromium. examples/store-worker.ts is a Cloudflare
    // Worker: test/store/cloudflare.test.ts runs it in workerd. The deployment templates run in their
    // runtimes: test/deploy/workerd.test.ts (the travel Worker), deno-bun.test.ts, serverless-route.test.ts.
    const deployed = [
      "examples/cloudflare-worker/worker.ts",
      "examples/serverless/app/elicit/[...path]/route.ts",
      "examples/serverless/app/mcp/route.ts",
      "examples/serverless/bun.ts",
      "examples/serverless/deno.ts",
      "examples/serverless/travel.ts",
    ];
    assert.deepEqual(
      [...byConsole, ...deployed, "examples/conformance/server.ts", "examples/oauth-host.ts", "examples/web-embed.ts", "examples/store-worker.ts"].sort(),
      serving,
    );
  });
});

// Each example is its own process and waits mostly on its own timers and sockets (a task's polls, a retry's
// wait): four at a time, not one after another.
describe("examples print what their comments say", { concurrency: 4 }, () => {
  for (const example of printing) {
    test(example, async () => {
      const { stdout } = await run(process.execPath, ["--import", "tsx", example], { cwd: root });
      assert.deepEqual(stdout.trimEnd().split("\n"), expectedLines(example));
    });
  }
});

describe("console blocks print what they show", { concurrency: true }, () => {
  for (const { page, command, output, exit } of consoles) {
    test(`${page}: ${command}`, async () => {
      const [npx, elicit, ...args] = words(command);
      assert.deepEqual([npx, elicit], ["npx", "elicit"], "console blocks run elicit");
      const { stdout, code } = await run(process.execPath, [BIN, ...args], { cwd: root, env: { ...process.env, CI: "true" } }).then(
        (r) => ({ ...r, code: 0 }),
        (e: { stdout: string; code: number }) => e,
      );
      assert.equal(code, exit, stdout);
      assert.equal(stdout.trimEnd(), output.trimEnd());
    });
  }
});

test("examples/conformance/server.ts serves the conformance suite's tools", async () => {
  const { stdout } = await run(process.execPath, [BIN, "tools", "--", process.execPath, "--import", "tsx", "examples/conformance/server.ts"], { cwd: root });
  const names = (JSON.parse(stdout) as { tools: { name: string }[] }).tools.map((t) => t.name);
  for (const name of ["test_elicitation", "test_elicitation_sep1034_defaults", "test_elicitation_sep1330_enums"]) assert.ok(names.includes(name), name);
});
