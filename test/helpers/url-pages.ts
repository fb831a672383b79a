// The URL kit's pages at the real boundary: a node:http server on 127.0.0.1 serving the pages under
// /elicit/ (the way serveHttp mounts them), a real local OpenID provider as the MCP server's
// authorization server (alice, bob), a second one as the third-party provider, and Chromium.
import { after, before } from "node:test";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync, readdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { getRequestListener } from "@hono/node-server";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { buildWeb, WEB_ENTRIES } from "../../scripts/build-web.mjs";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import type { FlowInit, UrlFlow } from "../../src/server/url/flows.js";
import { kitKeys } from "../../src/server/url/keys.js";
import { createUrlKit, type UrlKit, type UrlKitOptions } from "../../src/server/url/url-kit.js";
import { createPages, type PagesHandler } from "../../src/server/url/pages/index.js";
import { sqliteStore, type KeyValueStore } from "../../src/store/index.js";
import { launchChromium } from "./chromium.js";
import { has } from "./needs.js";
import { registerPublicClient } from "./oidc.js";
import { removeOnExit } from "./cleanup.js";

const root = fileURLToPath(new URL("../..", import.meta.url));

function newest(dir: string): number {
  let time = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    time = Math.max(time, entry.isDirectory() ? newest(path) : statSync(path).mtimeMs);
  }
  return time;
}

/** dist/web's bundles (the pages serve elements/form.js and url-form.js from there), rebuilt only when a source is newer. */
export async function ensurePageBundles(): Promise<void> {
  const outputs = ["elements/form.js", "url-form.js", "url-file.js", "form-app.js"].map((f) => join(root, "dist/web", f));
  const built = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  if (built > newest(join(root, "src"))) return;
  await buildWeb({ entries: WEB_ENTRIES });
}

export interface PagesBench {
  /** The MCP server's authorization server: the person signs in here. */
  auth: OpenIdProvider;
  /** The third-party provider whose account is connected ("skymiles"). */
  third: OpenIdProvider;
  base: URL;
  kit: UrlKit;
  store: KeyValueStore;
  browser: Browser;
  /** Errors the pages turned into 500 pages. */
  errors: Error[];
  /** Where screenshots go: $MCP_ELICIT_SCREENSHOTS, or a scratch folder removed at the end. */
  shots: string;
  dir: string;
  /** A flow as a tool would make it (for alice unless said otherwise). */
  flow(init: Partial<FlowInit> & Pick<FlowInit, "kind">): Promise<UrlFlow>;
  /** A fresh browser (its own cookies) with one page. */
  person(): Promise<{ context: BrowserContext; page: Page }>;
  /** A new kit on the same SQLite file and key, in place of the old one (a restarted server). */
  restart(): Promise<void>;
  /** Serves `handler` for paths outside /elicit/ (an author's own page). */
  authorPage?: (url: URL) => Promise<{ status: number; body: string }>;
}

export const principalOf = (bench: PagesBench, user: string) => ({ issuer: bench.auth.issuer, sub: user });

/** The bench for a test file: started before its tests, stopped after. */
export function pagesBench(options: { identity?: UrlKitOptions["identity"] } = {}): PagesBench {
  const bench = { errors: [] as Error[] } as PagesBench;
  let server: Server;
  let scratch: string;
  const vaultKey = randomBytes(32);
  let handler: PagesHandler;
  let clientId: string;

  const makeKit = () => {
    bench.store = sqliteStore(join(scratch, "kit.db"));
    bench.kit = createUrlKit({
      baseUrl: bench.base,
      store: bench.store,
      vaultKey,
      identity: options.identity ?? "oidc",
      oidc: { issuer: bench.auth.issuer },
      serverName: "Travel (test)",
      providers: { skymiles: { issuer: bench.third.issuer, clientId, scopes: ["openid"], title: "SkyMiles" } },
    });
    handler = createPages(
      { kit: bench.kit, keys: kitKeys(vaultKey), store: bench.store, baseUrl: bench.base },
      { onerror: (e) => bench.errors.push(e) },
    );
  };

  before(async () => {
    await ensurePageBundles();
    scratch = mkdtempSync(join(tmpdir(), "mcp-elicit-pages-"));
    removeOnExit(scratch); // also when the file is cut before its after hooks
    bench.dir = scratch;
    bench.shots = process.env.MCP_ELICIT_SCREENSHOTS ?? join(scratch, "shots");
    mkdirSync(bench.shots, { recursive: true });
    [bench.auth, bench.third] = await Promise.all([
      startOpenIdProvider(),
      startOpenIdProvider({ users: [{ id: "flyer", password: "flyer", name: "Frequent Flyer" }] }),
    ]);
    const pages = getRequestListener((request, env) => handler(request, env as { incoming: { socket: { remoteAddress?: string } } }));
    server = createServer((req, res) => {
      const url = new URL(req.url ?? "/", bench.base);
      if (url.pathname.startsWith("/elicit/") || !bench.authorPage) return void pages(req, res);
      void bench.authorPage(url).then(({ status, body }) => res.writeHead(status, { "content-type": "text/html" }).end(body));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    bench.base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/elicit/`);
    clientId = await registerPublicClient(bench.third.issuer, new URL("callback", bench.base).href, "Travel (test)");
    makeKit();
    // Without Chromium the groups that open pages are skipped (needs("chromium")); the others still run.
    if (has("chromium")) bench.browser = await launchChromium();
  });

  after(async () => {
    await bench.browser?.close();
    // A before that failed early left no server: closing nothing must not wait forever.
    if (server)
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    await bench.kit?.close();
    await bench.store?.close();
    await Promise.all([bench.auth?.close(), bench.third?.close()]);
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  bench.flow = (init) =>
    bench.kit.flows.create({
      principal: principalOf(bench, "alice"),
      server: "Travel (test)",
      client: "Test host",
      message: "Connect your frequent-flyer account to collect miles for this trip.",
      ...init,
    } as FlowInit);

  bench.person = async () => {
    const context = await bench.browser.newContext({ viewport: { width: 800, height: 900 } });
    const page = await context.newPage();
    page.setDefaultTimeout(15_000);
    return { context, page };
  };

  bench.restart = async () => {
    await bench.kit.close();
    await bench.store.close();
    makeKit();
  };

  return bench;
}

/** Signs in on the local provider's pages as `user` (its password is its name) and allows what is asked. */
export async function signInOnProvider(page: Page, issuer: string, user: string): Promise<void> {
  await page.waitForURL((url) => url.href.startsWith(issuer));
  await page.getByLabel("Username").fill(user);
  await page.getByLabel("Password").fill(user);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The consent step shows only the first time a client asks this person; otherwise the provider sends the browser back.
  const allow = page.getByRole("button", { name: "Allow" });
  const back = page.waitForURL((url) => !url.href.startsWith(issuer));
  if ((await Promise.race([allow.waitFor().then(() => "consent"), back.then(() => "back")])) === "consent") await allow.click();
  await back;
}
