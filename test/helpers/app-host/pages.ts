// The test host's three origins on 127.0.0.1, each a server of its own on a free port: the host page
// (AppBridge, bundled from host-page.ts), the sandbox proxy (sandbox-proxy.ts, with the View's CSP as a
// header), and a third origin whose page plays "another frame" that posts to the View.
import { build } from "esbuild";
import { fileURLToPath } from "node:url";
import type { McpUiResourceCsp } from "@modelcontextprotocol/ext-apps/app-bridge";
import { listenLocal } from "../local-server.js";

const here = fileURLToPath(new URL(".", import.meta.url));

async function bundle(entry: string): Promise<string> {
  const out = await build({
    entryPoints: [`${here}/${entry}`],
    bundle: true,
    write: false,
    format: "esm",
    platform: "browser",
    target: "es2022",
    logLevel: "silent",
  });
  return out.outputFiles[0]!.text;
}

let bundles: Promise<{ host: string; proxy: string }> | undefined;
/** Both bundles, built once per process. */
const built = () =>
  (bundles ??= Promise.all([bundle("host-page.ts"), bundle("sandbox-proxy.ts")]).then(([host, proxy]) => ({ host, proxy })));

const HOST_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>MCP Apps test host</title><link rel="icon" href="data:,">
<style>
  body { margin: 0; padding: 12px; font-family: system-ui, sans-serif; }
  @media (prefers-color-scheme: dark) { body { background: #1f1f1f; color: #eee; } }
  #views iframe { display: block; width: 100%; height: 120px; border: 0; margin-bottom: 12px; }
  #others iframe { width: 1px; height: 1px; border: 0; }
</style>
<script type="module" src="/host.js"></script></head>
<body><main id="views"></main><div id="others"></div></body></html>`;

const PROXY_PAGE = `<!doctype html>
<html><head><meta charset="utf-8"><link rel="icon" href="data:,"><style>html, body { margin: 0; height: 100%; overflow: hidden; }</style></head>
<body><script src="/sandbox-proxy.js"></script></body></html>`;

const OTHER_PAGE = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"></head><body>another frame</body></html>`;

/** A domain the server declared, as a CSP source; anything else (a quote, a space, a semicolon) is refused. */
function source(field: string, value: unknown): string {
  if (typeof value === "string" && /^(https?|wss?):\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/i.test(value)) return value;
  throw new Error(`_meta.ui.csp.${field}: ${JSON.stringify(value)} is not an origin (scheme://host[:port])`);
}

/**
 * The View's Content-Security-Policy, as the MCP Apps spec asks of a host: its restrictive default, widened
 * only by the domains the resource declared, with frames, objects and the base URI shut unless declared.
 */
export function viewCsp(csp: McpUiResourceCsp = {}): string {
  const list = (field: keyof McpUiResourceCsp) => (csp[field] ?? []).map((d) => source(field, d));
  const resources = list("resourceDomains").join(" ");
  const connect = list("connectDomains");
  const frames = list("frameDomains");
  const bases = list("baseUriDomains");
  return [
    "default-src 'none'",
    `script-src 'self' 'unsafe-inline' ${resources}`,
    `style-src 'self' 'unsafe-inline' ${resources}`,
    `img-src 'self' data: ${resources}`,
    `font-src 'self' ${resources}`,
    `media-src 'self' data: ${resources}`,
    `connect-src ${connect.length ? connect.join(" ") : "'none'"}`,
    `frame-src ${frames.length ? frames.join(" ") : "'none'"}`,
    `base-uri ${bases.length ? bases.join(" ") : "'self'"}`,
    "object-src 'none'",
  ]
    .map((d) => d.trim())
    .join("; ");
}

export interface HostOrigins {
  hostUrl: URL;
  sandboxUrl: URL;
  otherUrl: URL;
  /** The CSP headers the sandbox proxy was served with, in order: what the host enforced. */
  cspServed: string[];
  close(): void;
}

/** Starts the three servers; `close()` stops them. */
export async function startOrigins(): Promise<HostOrigins> {
  const { host, proxy } = await built();
  const cspServed: string[] = [];
  const hostSide = await listenLocal((req, res) => {
    const path = new URL(req.url ?? "/", "http://x").pathname;
    if (path === "/") res.writeHead(200, { "content-type": "text/html" }).end(HOST_PAGE);
    else if (path === "/host.js") res.writeHead(200, { "content-type": "text/javascript" }).end(host);
    else res.writeHead(404).end();
  }, "/");
  const sandbox = await listenLocal((req, res) => {
    const url = new URL(req.url ?? "/", "http://x");
    if (url.pathname === "/sandbox.html") {
      let policy: string;
      try {
        policy = viewCsp(JSON.parse(url.searchParams.get("csp") ?? "{}") as McpUiResourceCsp);
      } catch (error) {
        res.writeHead(400, { "content-type": "text/plain" }).end(String(error));
        return;
      }
      cspServed.push(policy);
      res.writeHead(200, { "content-type": "text/html", "content-security-policy": policy }).end(PROXY_PAGE);
    } else if (url.pathname === "/sandbox-proxy.js") res.writeHead(200, { "content-type": "text/javascript" }).end(proxy);
    else res.writeHead(404).end();
  }, "/sandbox.html");
  const other = await listenLocal((_req, res) => res.writeHead(200, { "content-type": "text/html" }).end(OTHER_PAGE), "/other.html");
  return {
    hostUrl: hostSide.url,
    sandboxUrl: sandbox.url,
    otherUrl: other.url,
    cspServed,
    close() {
      hostSide.close();
      sandbox.close();
      other.close();
    },
  };
}
