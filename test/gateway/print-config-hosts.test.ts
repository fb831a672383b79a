// `elicit gateway --print-config` for the hosts beyond the first four: Codex (TOML), Gemini CLI, Goose
// (YAML), Zed, opencode and Windsurf. Each snippet is parsed as its host reads it and checked for what
// that host's documentation requires of a stdio server (src/cli/gateway/host-configs.ts names each
// page), and the command it holds is started as the host would start it, from another folder with no
// `elicit` and no node on the PATH: it must serve the travel server's tools.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { parse as parseToml } from "smol-toml";
import { parse as parseYaml } from "yaml";
import { CLI_TEST, runCli } from "../helpers/cli.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";

type Entry = { command: string; args: string[] };
type Config = Record<string, any>;

const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === "string");

/** Each host: how it reads its file, and the one server entry it would start, checked against its documented fields. */
const HOSTS: Record<string, { parse: (text: string) => Config; entry: (config: Config) => Entry }> = {
  codex: {
    parse: parseToml,
    entry(config) {
      const server = config.mcp_servers.travel;
      assert.equal(typeof server.command, "string");
      assert.ok(isStrings(server.args));
      assert.ok(server.tool_timeout_sec >= 600 && server.startup_timeout_sec >= 30, "the timeouts raised");
      return { command: server.command, args: [...server.args] };
    },
  },
  "gemini-cli": { parse: JSON.parse, entry: (config) => commandAndArgs(config.mcpServers.travel) },
  goose: {
    parse: parseYaml,
    entry(config) {
      const extension = config.extensions.travel;
      assert.equal(extension.type, "stdio");
      assert.equal(extension.enabled, true);
      assert.equal(extension.name, "travel");
      assert.equal(typeof extension.cmd, "string");
      assert.ok(isStrings(extension.args));
      assert.ok(extension.timeout >= 600);
      return { command: extension.cmd, args: extension.args };
    },
  },
  zed: {
    parse: JSON.parse,
    entry(config) {
      assert.deepEqual(config.context_servers.travel.env, {});
      return commandAndArgs(config.context_servers.travel);
    },
  },
  opencode: {
    parse: JSON.parse,
    entry(config) {
      assert.equal(config.$schema, "https://opencode.ai/config.json");
      const server = config.mcp.travel;
      // opencode's schema: type and command required, no other members than its own (no "args").
      assert.deepEqual(Object.keys(server).sort(), ["command", "enabled", "type"]);
      assert.equal(server.type, "local");
      assert.equal(server.enabled, true);
      assert.ok(isStrings(server.command) && server.command.length > 1);
      return { command: server.command[0], args: server.command.slice(1) };
    },
  },
  windsurf: { parse: JSON.parse, entry: (config) => commandAndArgs(config.mcpServers.travel) },
};

function commandAndArgs(server: Config): Entry {
  assert.deepEqual(Object.keys(server).slice(0, 2), ["command", "args"]);
  assert.equal(typeof server.command, "string");
  assert.ok(isStrings(server.args));
  return { command: server.command, args: server.args };
}

/** Starts `entry` as a host would, elsewhere and without node or elicit on the PATH, and lists its tools. */
async function toolsThrough(entry: Entry): Promise<string[]> {
  const cwd = mkdtempSync(join(tmpdir(), "mcp-elicit-host-"));
  const unregister = removeOnExit(cwd);
  const env = { ...process.env, ...NO_MODEL_ENV, PATH: "/usr/bin:/bin" } as Record<string, string>;
  const client = new Client({ name: "snippet-host", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
  let stderr = "";
  const transport = new StdioClientTransport({ command: entry.command, args: entry.args, cwd, env, stderr: "pipe" });
  transport.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
  try {
    await client.connect(transport, { timeout: 90_000 });
    return (await client.listTools()).tools.map((t) => t.name);
  } catch (error) {
    (error as Error).message += `\n(stderr:\n${stderr})`;
    throw error;
  } finally {
    await client.close().catch(() => {});
    rmSync(cwd, { recursive: true, force: true });
    unregister();
  }
}

describe("--print-config for Codex, Gemini CLI, Goose, Zed, opencode and Windsurf", () => {
  for (const [host, { parse, entry }] of Object.entries(HOSTS)) {
    test(
      `${host}: the snippet has the fields its documentation requires, and the command it holds serves the server`,
      CLI_TEST,
      async () => {
        const { code, stdout, stderr } = await runCli(["gateway", "--print-config", host, "--", "elicit", "serve", "travel"]);
        assert.equal(code, 0, stderr);
        assert.match(stderr, /^Merge this into |^Add this to /, "where it goes, on stderr");
        const launch = entry(parse(stdout));
        assert.ok(
          launch.args.includes("gateway") && launch.args.includes("serve") && launch.args.at(-1) === "travel",
          launch.args.join(" "),
        );
        assert.ok((await toolsThrough(launch)).includes("book_trip"), "the gateway serves the travel server's tools");
      },
    );
  }

  test("--npx: each snippet starts npx -y --package=mcp-elicit-cli elicit gateway", async () => {
    for (const [host, { parse, entry }] of Object.entries(HOSTS)) {
      const { code, stdout, stderr } = await runCli(["gateway", "--print-config", host, "--npx", "--", "elicit", "serve", "travel"]);
      assert.equal(code, 0, stderr);
      assert.deepEqual(
        entry(parse(stdout)),
        {
          command: "npx",
          args: ["-y", "--package=mcp-elicit-cli", "elicit", "gateway", "--", "elicit", "serve", "travel"],
        },
        host,
      );
    }
  });
});
