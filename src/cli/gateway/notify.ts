// A desktop notification when a question starts waiting on the gateway's page, which may sit in a
// background tab: notify-send (libnotify) on Linux and the BSDs, osascript on macOS, or the program
// ELICIT_NOTIFY_SEND names (called as notify-send is). The text names the server and the kind of
// question only: never the page's address (it holds the page's secret, and notification daemons keep a
// history) nor the server's message.
import { spawn } from "node:child_process";
import { sanitizeText } from "../../common/sanitize.js";
import { locateProgram, type ProgramInfo } from "../find-program.js";

/** Tells the person that `server` waits for them; a kind nobody acts on (a URL's wait) is not told. */
export type Notify = (server: string, kind: string) => void;

const NOTIFY_SEND: ProgramInfo = {
  env: "ELICIT_NOTIFY_SEND",
  debianPackage: "libnotify-bin",
  commands: ["notify-send"],
  places: ["/usr/bin/notify-send", "/usr/local/bin/notify-send"],
};
const OSASCRIPT: ProgramInfo = { env: "ELICIT_NOTIFY_SEND", debianPackage: "", commands: ["osascript"], places: ["/usr/bin/osascript"] };
// The title and text are argv items, never part of the script: nothing in them is AppleScript.
const APPLESCRIPT = ["-e", "on run argv", "-e", "display notification (item 2 of argv) with title (item 1 of argv)", "-e", "end run"];

/** The page's cards that wait for the person (a URL's wait for completion does not). */
const KIND: Record<string, string> = {
  form: "a form to fill in",
  url: "a link to open",
  "sampling-request": "a model request to review",
  "sampling-answer": "a model's answer to review",
};

/** The notifier of this machine, or undefined when it has none (then the page's address on stderr is all there is). */
export function desktopNotifier(env: NodeJS.ProcessEnv = process.env, platform = process.platform): Notify | undefined {
  const macOS = platform === "darwin" && !env.ELICIT_NOTIFY_SEND;
  const found = locateProgram(macOS ? "osascript" : "notify-send", macOS ? OSASCRIPT : NOTIFY_SEND, env);
  if (!("path" in found)) return undefined;
  const program = found.path;
  return (server, kind) => {
    if (!KIND[kind]) return;
    // Inert and short; no markup characters, which some notification daemons interpret.
    const name = sanitizeText(server, { maxLength: 60, multiline: false }).replace(/[<>&"]/g, "");
    const title = "elicit gateway";
    const body = `${name || "The server"} waits for you: ${KIND[kind]}, in your browser.`;
    // `--` ends notify-send's options: GLib reads options anywhere in argv, so a server named
    // "--icon=..." would otherwise set one. osascript's first argument after the script is the constant
    // title, where its getopt stops.
    const args = macOS ? [...APPLESCRIPT, title, body] : ["--app-name=elicit", "--", title, body];
    const child = spawn(program, args, { stdio: "ignore", detached: true, env });
    // A notifier that fails is no reason to stop: the address is on stderr already.
    child.on("error", () => {});
    child.unref();
  };
}
