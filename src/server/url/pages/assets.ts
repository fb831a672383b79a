// The files the pages load: their stylesheet, and for the hosted form the elements bundle and the form
// page script, both built by scripts/build-web.mjs into dist/web/. Read on first use and kept.
import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { PAGES_CSS } from "./styles.js";

/** dist/web/, from dist/server/url/pages/ in the package or src/server/url/pages/ in the repository (tsx). */
function bundleDir(): string {
  for (const candidate of ["../../../web/", "../../../../dist/web/"]) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(dir + "url-form.js")) return dir;
  }
  throw new Error("The pages' bundles (dist/web/elements.js, dist/web/url-form.js) are missing: build them with `npm run build`.");
}

export interface Asset {
  type: string;
  body: string;
}

const cache = new Map<string, Asset>();

/** The asset called `name`, or undefined for any other name. */
export function asset(name: string): Asset | undefined {
  if (name === "pages.css") return { type: "text/css; charset=utf-8", body: PAGES_CSS };
  if (name !== "elements.js" && name !== "url-form.js") return undefined;
  let found = cache.get(name);
  if (!found) cache.set(name, (found = { type: "text/javascript; charset=utf-8", body: readFileSync(bundleDir() + name, "utf8") }));
  return found;
}
