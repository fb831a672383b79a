// Where the URL kit's pages are served beside the MCP endpoint: the kit's own baseUrl, or one given when
// the address is known (serveHttp's, or the fetch handler's first request), never over the endpoint.
import type { UrlKit } from "../url/url-kit.js";

/** Checks that the kit's pages and the MCP endpoint do not overlap. */
export function checkPagesPath(who: string, kit: UrlKit, path: string): void {
  const prefix = kit.baseUrl!.pathname;
  if (prefix === "/" || path.startsWith(prefix))
    throw new TypeError(
      `${who}: the URL kit's pages (${prefix}) would cover the MCP endpoint ${path}; give the pages a path of their own.`,
    );
}

/** Gives the kit an address when it has none (`base`), and checks that its pages and the MCP endpoint do not overlap. */
export function mountPages(who: string, kit: UrlKit, path: string, base: URL, oidcIssuer: string | undefined): void {
  try {
    // People sign in on the pages at the authorization server that protects the endpoint, unless the kit names one.
    kit.mount(base, oidcIssuer ? { oidcIssuer } : {});
  } catch (error) {
    throw new TypeError(
      `${who}: ${(error as Error).message.replace(/^createUrlKit: /, "")} Give createUrlKit a baseUrl: the https address the pages are reached at.`,
    );
  }
  checkPagesPath(who, kit, path);
}
