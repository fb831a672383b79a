// Each host's configuration format for one stdio server, as that host documents it (the address of its
// documentation beside each), and where the snippet goes. The JSON and YAML snippets are whole files:
// pasted into an empty file they are its content, and into a file that has servers already, their one
// entry goes beside the others. Where a host documents a limit on how long a tool call may take, the
// snippet raises it: the person may take minutes on the gateway's page.
import { stringify as toYaml } from "yaml";
import type { PrintConfigHost } from "../constants.js";

/** Seconds a tool call may take where the host has a documented setting for it. */
export const TOOL_TIMEOUT_S = 600;

/** Seconds the gateway may take to start where the host has a documented setting for it (npx may fetch the package first). */
export const STARTUP_TIMEOUT_S = 60;

/** A shell word, quoted when it needs to be. */
const shellWord = (word: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`);
const json = (value: unknown) => JSON.stringify(value, null, 2);
/** A TOML basic string: JSON's escapes are TOML's. */
const tomlString = (text: string) => JSON.stringify(text);

interface HostConfig {
  /** Where the snippet goes, said on stderr. */
  where: string;
  snippet(name: string, command: string, args: string[]): string;
}

export const HOST_CONFIGS: Record<PrintConfigHost, HostConfig> = {
  // https://modelcontextprotocol.io/quickstart/user
  "claude-desktop": {
    where:
      'Merge this into claude_desktop_config.json (Settings › Developer › Edit Config): its entry goes beside any others in "mcpServers". Then restart Claude Desktop.',
    snippet: (name, command, args) => json({ mcpServers: { [name]: { command, args } } }),
  },
  // https://docs.anthropic.com/en/docs/claude-code/mcp
  "claude-code": {
    where: "Run this command in your project (add --scope user to make it yours everywhere).",
    snippet: (name, command, args) => ["claude", "mcp", "add", name, "--", command, ...args].map(shellWord).join(" "),
  },
  // https://code.visualstudio.com/docs/copilot/chat/mcp-servers
  vscode: {
    where: 'Merge this into .vscode/mcp.json: its entry goes beside any others in "servers" (or run "MCP: Add Server").',
    snippet: (name, command, args) => json({ servers: { [name]: { type: "stdio", command, args } } }),
  },
  // https://docs.cursor.com/context/model-context-protocol
  cursor: {
    where: 'Merge this into ~/.cursor/mcp.json (or .cursor/mcp.json in a project): its entry goes beside any others in "mcpServers".',
    snippet: (name, command, args) => json({ mcpServers: { [name]: { command, args } } }),
  },
  // https://developers.openai.com/codex/mcp: [mcp_servers.<name>] with command and args; startup_timeout_sec
  // (10 s by default: npx may fetch the package first) and tool_timeout_sec (60 s by default).
  codex: {
    where: `Add this to ~/.codex/config.toml (or .codex/config.toml in a trusted project), beside any other [mcp_servers.*] tables. tool_timeout_sec lets a call wait ${TOOL_TIMEOUT_S} s for you to answer on the gateway's page (Codex's default is 60 s).`,
    snippet: (name, command, args) =>
      [
        `[mcp_servers.${name}]`,
        `command = ${tomlString(command)}`,
        `args = [${args.map(tomlString).join(", ")}]`,
        `startup_timeout_sec = ${STARTUP_TIMEOUT_S}`,
        `tool_timeout_sec = ${TOOL_TIMEOUT_S}`,
      ].join("\n"),
  },
  // https://geminicli.com/docs/tools/mcp-server/: "mcpServers" in settings.json, command and args.
  "gemini-cli": {
    where:
      'Merge this into ~/.gemini/settings.json (or .gemini/settings.json in a project): its entry goes beside any others in "mcpServers". Then restart Gemini CLI.',
    snippet: (name, command, args) => json({ mcpServers: { [name]: { command, args } } }),
  },
  // https://block.github.io/goose/docs/getting-started/using-extensions ("Config Entry"): extensions.<key> with
  // type stdio, cmd, args, enabled, envs and timeout (seconds).
  goose: {
    where: `Merge this into ~/.config/goose/config.yaml: its entry goes beside any others under "extensions". timeout lets a call wait ${TOOL_TIMEOUT_S} s for you to answer on the gateway's page.`,
    snippet: (name, command, args) =>
      toYaml({
        extensions: {
          [name]: {
            enabled: true,
            type: "stdio",
            name,
            description: `${name} through elicit gateway`,
            cmd: command,
            args,
            envs: {},
            timeout: TOOL_TIMEOUT_S,
          },
        },
      }).trimEnd(),
  },
  // https://zed.dev/docs/ai/mcp ("As Custom Servers"): "context_servers" in settings.json, command, args and env.
  zed: {
    where: 'Merge this into Zed\'s settings.json (zed: open settings file): its entry goes beside any others in "context_servers".',
    snippet: (name, command, args) => json({ context_servers: { [name]: { command, args, env: {} } } }),
  },
  // https://opencode.ai/docs/mcp-servers ("Local"): "mcp" in opencode.json, type local, the command and its arguments as one array.
  opencode: {
    where:
      'Merge this into opencode.json in your project (or ~/.config/opencode/opencode.json): its entry goes beside any others in "mcp".',
    snippet: (name, command, args) =>
      json({ $schema: "https://opencode.ai/config.json", mcp: { [name]: { type: "local", command: [command, ...args], enabled: true } } }),
  },
  // https://docs.windsurf.com/windsurf/cascade/mcp ("mcp_config.json"): "mcpServers", command and args.
  windsurf: {
    where:
      'Merge this into ~/.codeium/windsurf/mcp_config.json (Windsurf Settings › Cascade › MCP Servers › View raw config): its entry goes beside any others in "mcpServers". Then press refresh in the MCP panel.',
    snippet: (name, command, args) => json({ mcpServers: { [name]: { command, args } } }),
  },
};
