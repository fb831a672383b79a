// `--web`: the commands answer in a browser tab instead of the terminal. The terminal keeps the
// progress and the results; it prints the page's address on a line of its own and says when a
// question waits in the browser.
import { webUI, type PendingSummary, type WebUI } from "../ui/web/server/web-ui.js";
import { printLine } from "./host-output.js";

export interface WebFlags {
  /** --web */
  web?: boolean;
  /** false with --no-browser: print the address only. */
  browser?: boolean;
}

const KIND: Record<PendingSummary["kind"], string> = {
  form: "a form",
  url: "a link to open",
  "url-wait": "a link you are finishing",
  "sampling-request": "a model request to review",
  "sampling-answer": "a model answer to review",
};

/** Starts the page's server, prints its address and opens it (unless --no-browser). */
export async function startWebUI(flags: WebFlags): Promise<WebUI> {
  let shown = 0;
  const ui = await webUI({
    open: flags.browser !== false,
    log: (line) => printLine(`elicit: ${line}`),
    onChange(pending) {
      // One line per new question, not per change: the terminal is a progress log here.
      const added = pending.slice(shown);
      shown = pending.length;
      for (const p of pending.length > 0 ? added : []) printLine(`elicit: in the browser: ${KIND[p.kind]} from ${p.server}`);
    },
  });
  printLine(`elicit: answer in your browser: ${ui.pageUrl}`);
  return ui;
}
