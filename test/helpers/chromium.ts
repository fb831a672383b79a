// Chromium, headless, as the browser tests and the bench start it (playwright-core downloads no browser):
// found as the demo finds it ($ELICIT_CHROMIUM, the PATH, the usual places; test/helpers/needs.ts).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS } from "../../src/cli/demo-browser.js";
import { removeOnExit } from "./cleanup.js";
import { programPath } from "./needs.js";

export { CHROMIUM_ARGS };

// Playwright makes a browser's profile and artifacts folders in the temp folder and removes them when the
// browser closes; a file the runner cuts never closes it, and they stayed. They are made inside a folder
// of this process's, which is removed however the process ends.
let browserTemp: string | undefined;

export async function launchChromium(): Promise<Browser> {
  if (!browserTemp) {
    browserTemp = mkdtempSync(join(tmpdir(), "elicit-chromium-"));
    removeOnExit(browserTemp);
  }
  // os.tmpdir() reads TMPDIR when Playwright asks it, during the launch.
  const saved = process.env.TMPDIR;
  process.env.TMPDIR = browserTemp;
  try {
    return await chromium.launch({ executablePath: programPath("chromium"), args: CHROMIUM_ARGS });
  } finally {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
  }
}
