// `elicit gateway --print-config`: the snippet starts the `elicit` that printed it. From a clone (the built
// bin here) that is its absolute command, and a host launched with the snippet, from another folder and
// with no `elicit` on its PATH, completes `book_trip`; `--npx` prints the registry form. Which form is the
// default follows from where the running package was installed from (launcher.ts), checked here on
// folders laid out as npm lays them out. The same snippet from a registry install is run by
// test/package/registry.test.ts.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fromRegistry } from "../../src/cli/gateway/launcher.js";
import { BIN, CLI_TEST, runCli } from "../helpers/cli.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { bookTripThrough, entryOf } from "../helpers/snippet-host.js";

const NPX = ["-y", "--package=mcp-elicit-cli", "elicit"];

describe("the snippet from an elicit that is not a registry install", () => {
  test("starts this elicit by its absolute command, the server's `elicit` too, and says where it goes and how it starts", async () => {
    const { code, stdout, stderr } = await runCli(["gateway", "--print-config", "claude-desktop", "--", "elicit", "serve", "travel"]);
    assert.equal(code, 0, stderr);
    const bin = realpathSync(BIN);
    assert.deepEqual(JSON.parse(stdout), {
      mcpServers: { travel: { command: process.execPath, args: [bin, "gateway", "--", process.execPath, bin, "serve", "travel"] } },
    });
    assert.match(
      stderr,
      /^Merge this into claude_desktop_config\.json \(Settings › Developer › Edit Config\): its entry goes beside any others in "mcpServers"\./,
    );
    assert.doesNotMatch(stderr, /Add this under/, "the snippet already is the whole object: told to put it under mcpServers, it nests");
    assert.ok(stderr.includes(`It starts this computer's elicit (${bin})`), stderr);
    assert.match(stderr, /--npx prints the form that fetches mcp-elicit-cli from the npm registry/);
  });

  test("a host launched with it, elsewhere and without elicit on its PATH, completes book_trip", CLI_TEST, async () => {
    const { stdout } = await runCli(["gateway", "--print-config", "cursor", "--", "elicit", "serve", "travel"]);
    const cwd = mkdtempSync(join(tmpdir(), "mcp-elicit-host-"));
    removeOnExit(cwd);
    let stderr = "";
    try {
      // Only the system's folders on the PATH: no node_modules/.bin, no node, no npx.
      const env = { ...process.env, ...NO_MODEL_ENV, PATH: "/usr/bin:/bin" } as Record<string, string>;
      const { text, asked } = await bookTripThrough(entryOf(stdout), { cwd, env, timeoutMs: 90_000, onStderr: (t) => (stderr += t) });
      assert.match(text, /^Booked! Reference ELC-/, stderr);
      assert.equal(asked.length, 2, "the host answered both forms");
    } finally {
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});

describe("--npx: the registry form", () => {
  test("for each host, npx -y --package=mcp-elicit-cli elicit, and the server command as given", async () => {
    const print = async (host: string) => {
      const { code, stdout, stderr } = await runCli(["gateway", "--print-config", host, "--npx", "--", "elicit", "serve", "travel"]);
      assert.equal(code, 0, stderr);
      assert.match(stderr, /It starts elicit with npx, which fetches mcp-elicit-cli from the npm registry the first time\.$/m);
      return { stdout, stderr };
    };
    const args = [...NPX, "gateway", "--", "elicit", "serve", "travel"];
    assert.deepEqual(JSON.parse((await print("claude-desktop")).stdout), { mcpServers: { travel: { command: "npx", args } } });
    const cursor = await print("cursor");
    assert.deepEqual(JSON.parse(cursor.stdout), { mcpServers: { travel: { command: "npx", args } } });
    assert.match(cursor.stderr, /^Merge this into ~\/\.cursor\/mcp\.json/);
    const vscode = await print("vscode");
    assert.deepEqual(JSON.parse(vscode.stdout), { servers: { travel: { type: "stdio", command: "npx", args } } });
    assert.match(vscode.stderr, /^Merge this into \.vscode\/mcp\.json: its entry goes beside any others in "servers"/);
    assert.equal((await print("claude-code")).stdout.trimEnd(), `claude mcp add travel -- npx ${args.join(" ")}`);
  });
});

describe("which installs count as from the registry", () => {
  /** A project with `name` in node_modules, recorded by npm as resolved from `resolved`. */
  function installed(name: string, resolved: string): string {
    const project = mkdtempSync(join(tmpdir(), "mcp-elicit-installed-"));
    removeOnExit(project);
    const folder = join(project, "node_modules", ...name.split("/"));
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, "package.json"), JSON.stringify({ name, version: "0.1.0" }));
    const lock = { lockfileVersion: 3, packages: { [`node_modules/${name}`]: { version: "0.1.0", resolved } } };
    writeFileSync(join(project, "node_modules", ".package-lock.json"), JSON.stringify(lock));
    return folder;
  }

  test("fetched over http(s) from a registry: yes; a tarball, a folder, or no record: no", () => {
    assert.equal(fromRegistry(installed("mcp-elicit-cli", "https://registry.npmjs.org/mcp-elicit-cli/-/mcp-elicit-cli-0.1.0.tgz")), true);
    assert.equal(fromRegistry(installed("mcp-elicit-cli", "http://127.0.0.1:4873/mcp-elicit-cli/-/mcp-elicit-cli-0.1.0.tgz")), true);
    assert.equal(fromRegistry(installed("@scope/cli", "https://registry.npmjs.org/@scope/cli/-/cli-0.1.0.tgz")), true);
    assert.equal(fromRegistry(installed("mcp-elicit-cli", "file:../mcp-elicit-cli-0.1.0.tgz")), false);
    assert.equal(fromRegistry(installed("mcp-elicit-cli", "packages/cli")), false);
    const unrecorded = installed("mcp-elicit-cli", "https://registry.npmjs.org/x.tgz");
    rmSync(join(dirname(unrecorded), ".package-lock.json"));
    assert.equal(fromRegistry(unrecorded), false);
    // The clone's workspace: its real path is packages/cli, in no node_modules folder.
    assert.equal(fromRegistry(realpathSync(new URL("../../packages/cli", import.meta.url))), false);
  });
});
