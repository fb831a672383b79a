// The packages that only the terminal renderer, the OpenAI provider, the demo's sign-in server and the
// `elicit` command use are optional peers of mcp-elicit: `npm i mcp-elicit` leaves them out, and
// mcp-elicit-cli (the package whose bin is `elicit`) brings them. An entry point that needs them checks
// first, so a missing one is an error that names what to install, not a bare ERR_MODULE_NOT_FOUND from
// deep inside dist/.
import { ElicitError } from "../schema/errors.js";

/** What each entry point (or feature) needs besides mcp-elicit's own dependencies. */
export const OPTIONAL_PEERS = {
  // `open` too, but only when a URL is opened without BROWSER (browserOpener, open-url.ts).
  "mcp-elicit/terminal": ["@inquirer/prompts", "@inquirer/core", "ora"],
  "mcp-elicit/openai": ["openai"],
  "mcp-elicit/oidc": ["oidc-provider"],
  // Loaded on a file's first type check: a server that asks for no files does not need it.
  "ctx.elicitFile": ["file-type"],
  "The elicit command": ["commander", "@inquirer/prompts", "@inquirer/core", "ora", "open", "openai", "oidc-provider", "file-type"],
} as const satisfies Record<string, readonly string[]>;

/** Installed with an entry's peers, though loaded only when used: `open` when a URL is opened without BROWSER. */
const INSTALLED_WITH: Partial<Record<keyof typeof OPTIONAL_PEERS, readonly string[]>> = {
  "mcp-elicit/terminal": ["open"],
};

/**
 * The one command that installs what an entry point needs. The README, the docs and the error below all
 * give this line (test/package/install-line.test.ts checks that they agree and fit the peer ranges).
 */
export function installLine(what: keyof typeof OPTIONAL_PEERS): string {
  return `npm install ${[...OPTIONAL_PEERS[what], ...(INSTALLED_WITH[what] ?? [])].join(" ")}`;
}

/** An optional peer dependency that is not installed, named with the command that installs it. */
export class MissingPeerError extends ElicitError {
  readonly packages: string[];
  /** `install`: the command to give (default: `npm install` and the missing packages). */
  constructor(what: string, packages: string[], hint?: string, install = `npm install ${packages.join(" ")}`) {
    const names = packages.length === 1 ? packages[0]! : `${packages.slice(0, -1).join(", ")} and ${packages.at(-1)}`;
    const them = packages.length === 1 ? "an optional peer dependency" : "optional peer dependencies";
    super("peer-missing", `${what} needs ${names} (${them} of mcp-elicit, not installed): ${install}${hint ? `, ${hint}` : ""}`);
    this.packages = packages;
  }
}

/** The packages of `names` that cannot be resolved from mcp-elicit's own location (as its modules import them). */
export function missingPeers(names: readonly string[]): string[] {
  return names.filter((name) => {
    try {
      import.meta.resolve(name);
      return false;
    } catch {
      return true;
    }
  });
}

/** Loads `load()` (the modules of `what`) after checking that its optional peers resolve. */
export async function loadWithPeers<T>(what: keyof typeof OPTIONAL_PEERS, load: () => Promise<T>, hint?: string): Promise<T> {
  const missing = missingPeers(OPTIONAL_PEERS[what]);
  if (missing.length > 0) throw new MissingPeerError(what, missing, hint, installLine(what));
  return load();
}
