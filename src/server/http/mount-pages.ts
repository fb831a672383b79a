// Where the URL kit's pages are served beside the MCP endpoint: the kit's own baseUrl, or one given when
// the address is known (serveHttp's, or the fetch handler's first request), never over the endpoint.
import type { UrlKit } from "../url/url-kit.js";
import type { PeerInfo } from "../url/kit-types.js";

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

/** Serves a request for one of the kit's pages, or undefined when it asks for none. */
export type PagesRoute = (request: Request, pathname: string, peer: PeerInfo | undefined) => Promise<Response> | undefined;

/**
 * The kit's pages beside the MCP endpoint at `path`: a kit with an address is checked now, one without
 * gets `<the first request's origin>/elicit/` then. The pages are for browsers: no bearer token is asked for them.
 */
export function pagesRoute(who: string, kit: UrlKit, path: string, oidcIssuer: string | undefined): PagesRoute {
  if (kit.baseUrl) checkPagesPath(who, kit, path);
  return (request, pathname, peer) => {
    if (!kit.baseUrl) mountPages(who, kit, path, new URL("/elicit/", request.url), oidcIssuer);
    return pathname.startsWith(kit.baseUrl!.pathname) ? kit.fetch(request, peer) : undefined;
  };
}
