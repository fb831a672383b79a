// Debian's Chromium, headless, as the browser tests and the bench start it (playwright-core downloads no browser).
import { chromium, type Browser } from "playwright-core";

export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];

export const launchChromium = (): Promise<Browser> => chromium.launch({ executablePath: "/usr/bin/chromium", args: CHROMIUM_ARGS });
