// Debian's Chromium, headless, as the browser tests and the bench start it (playwright-core downloads no browser).
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS } from "../../src/cli/demo-browser.js";

export { CHROMIUM_ARGS };

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
