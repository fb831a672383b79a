// The files the pages load: their stylesheet, and for the hosted form the form element's own file (not the
// whole elements bundle: a third of its size, without the URL consent's suffix list) and the form page
// script, both built by scripts/build-web.mjs into dist/web/. Read on first use and kept.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PAGES_CSS } from "./styles.js";

/** dist/web/, from dist/server/url/pages/ in the package or src/server/url/pages/ in the repository (tsx). */
function bundleDir(): string {
  for (const candidate of ["../../../web/", "../../../../dist/web/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(dir + "url-form.js")) return dir;
  }
  throw new Error("The pages' bundles (dist/web/elements/form.js, dist/web/url-form.js) are missing: build them with `npm run build`.");
}

// A padlock: the page's own icon, so the browser does not ask the origin's root for one.
const ICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 16 16"><rect x="2" y="7" width="12" height="8" rx="1.5" fill="#1f5fbf"/><path d="M5 7V5a3 3 0 0 1 6 0v2" fill="none" stroke="#1f5fbf" stroke-width="1.6"/></svg>`;

export interface Asset {
  type: string;
  body: string;
}

const cache = new Map<string, Asset>();

/** The scripts the pages may load, by the name they are served under: their file in dist/web/. */
const SCRIPTS: Record<string, string> = { "form.js": "elements/form.js", "url-form.js": "url-form.js" };

/** The asset called `name`, or undefined for any other name. */
export function asset(name: string): Asset | undefined {
  if (name === "pages.css") return { type: "text/css; charset=utf-8", body: PAGES_CSS };
  if (name === "icon.svg") return { type: "image/svg+xml", body: ICON };
  const file = Object.hasOwn(SCRIPTS, name) ? SCRIPTS[name] : undefined;
  if (!file) return undefined;
  let found = cache.get(name);
  if (!found) cache.set(name, (found = { type: "text/javascript; charset=utf-8", body: readFileSync(bundleDir() + file, "utf8") }));
  return found;
}
