// mcp-elicit/terminal: the interactive terminal renderer of the client's UI contract
// (@inquirer/prompts for questions, ora for the wait spinner, open for the system browser).
export { terminalUI, type TerminalUI, type TerminalUIOptions } from "../ui/terminal/index.js";
