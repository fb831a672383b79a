// Chromium, headless, as the browser tests and the bench start it (playwright-core downloads no browser):
// found as the demo finds it ($ELICIT_CHROMIUM, the PATH, the usual places; test/helpers/needs.ts).
import { chromium, type Browser } from "playwright-core";
import { CHROMIUM_ARGS } from "../../src/cli/demo-browser.js";
import { programPath } from "../helpers/needs.js";

export { CHROMIUM_ARGS };

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: programPath("chromium"), args: CHROMIUM_ARGS });
