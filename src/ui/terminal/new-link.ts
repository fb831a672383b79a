// A new link for a page the person accepted, asked for from the terminal (n at either wait: the page
// wait between questions, waiting.ts, and a -32042 flow's wait, url.ts): what the server answered, as
// lines to print, the new link opened as the first was (or to open by hand).
import type { TerminalIO } from "./io.js";
import { inertLine } from "./style.js";

export async function newLinkLines(
  io: TerminalIO,
  host: string,
  renew: () => Promise<string>,
  openUrl: ((url: string) => Promise<void>) | false,
): Promise<string[]> {
  let url: string;
  try {
    url = inertLine(await renew());
  } catch (error) {
    return [io.style.warning(`No new link: ${inertLine(error instanceof Error ? error.message : error)}`)];
  }
  const lines = [`New link from ${host} (the old one no longer opens the page in another browser):`, `  ${url}`];
  if (!openUrl) return [...lines, "Open this address yourself."];
  try {
    await openUrl(url);
    return [...lines, "Opened in your browser."];
  } catch (error) {
    return [...lines, `No browser was opened: ${inertLine(error instanceof Error ? error.message : error)}. Open this address yourself.`];
  }
}
