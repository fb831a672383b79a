// mcp-elicit/terminal: the interactive terminal renderer of the client's UI contract
// (@inquirer/prompts for questions, ora for the wait spinner, open for the system browser when BROWSER is
// not set). They are optional peers of mcp-elicit: without them, importing this entry fails with an error
// that names them (`open` is loaded only when a URL is opened).
import "../ui/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
import { loadWithPeers } from "../common/optional-peers.js";

const terminal = await loadWithPeers("mcp-elicit/terminal", () => import("../ui/terminal/index.js"));

/**
 * An interactive terminal UI. Questions are asked one at a time: a request that arrives while
 * another is on screen waits its turn. Esc or Ctrl-C cancels the question on screen, and a
 * request the server withdraws (its context.signal aborts) ends as cancelled.
 */
export const terminalUI: typeof terminal.terminalUI = terminal.terminalUI;
export type { TerminalUI, TerminalUIOptions } from "../ui/terminal/index.js";
// The opener terminalUI uses by default, for an `openUrl` of the host's own (e.g. with noBrowser).
export { browserOpener, BrowserNotOpenedError, type BrowserOpenerOptions } from "../common/open-url.js";
