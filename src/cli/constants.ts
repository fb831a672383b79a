// What `elicit --help` shows of the commands, kept apart from them: main.ts imports a command's module
// only when it runs, and help must not load them all.

/** The servers `elicit serve` knows (serve.ts's SERVERS has one entry for each). */
export const SERVER_NAMES = ["conformance", "travel"] as const;
export type ServerName = (typeof SERVER_NAMES)[number];

/** How long connecting may take unless told otherwise (--connect-timeout, ELICIT_CONNECT_TIMEOUT). */
export const DEFAULT_CONNECT_TIMEOUT_S = 30;

/** The hosts `elicit gateway --print-config` writes a snippet for. */
export const PRINT_CONFIG_HOSTS = [
  "claude-desktop",
  "claude-code",
  "vscode",
  "cursor",
  "codex",
  "gemini-cli",
  "goose",
  "zed",
  "opencode",
  "windsurf",
] as const;
export type PrintConfigHost = (typeof PRINT_CONFIG_HOSTS)[number];
