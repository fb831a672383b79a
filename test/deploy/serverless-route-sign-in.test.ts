// The travel route (examples/serverless/app/mcp/route.ts) as a deployment on a public address runs it:
// two instances behind a round-robin balancer sharing a SQLite file (or Redis), the same state and vault keys, and
// sign-in at a real OpenID provider ($OIDC_ISSUER, $OIDC_CLIENT_ID, $PUBLIC_URL). A 2026-07-28 client
// calling as alice books a trip and pays: the payment link, opened in Chromium, is refused to bob signed
// in at the provider, and completed by alice signed in there; the pages' requests land on both instances.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { payWithTestCard } from "../../src/cli/demo-browser.js";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { needs } from "../helpers/needs.js";
import { registerPublicClient, signIn } from "../helpers/oidc.js";
import { startRedis, type RedisServer } from "../helpers/redis.js";
import { roundRobin, type RoundRobin } from "../helpers/round-robin.js";
import { startRuntime, type RuntimeServer } from "../helpers/runtimes.js";
import { ensurePageBundles, signInOnProvider } from "../helpers/url-pages.js";
import { launchChromium } from "../helpers/chromium.js";
import { bookTrip, payForBooking, Traveler, travelClient } from "../helpers/travel-calls.js";

const DEADLINE = { timeout: 180_000 };
const key = () => randomBytes(32).toString("base64url");

for (const shared of ["a SQLite file", "Redis"] as const) {
  describe(
    `the travel route on two instances sharing ${shared}, people signed in at an OpenID provider`,
    { skip: needs("chromium") || (shared === "Redis" && needs("redis-server")) },
    () => {
      let dir: string;
      let redis: RedisServer | undefined;
      let provider: OpenIdProvider;
      let instances: RuntimeServer[] = [];
      let balancer: RoundRobin;
      let browser: Browser;

      before(async () => {
        dir = mkdtempSync(join(tmpdir(), "mcp-elicit-route-oidc-"));
        removeOnExit(dir);
        await ensurePageBundles();
        provider = await startOpenIdProvider();
        if (shared === "Redis") redis = await startRedis();
        // The edge in front of the instances is the public address: it passes the Host on, as a platform does.
        balancer = await roundRobin(() => instances.map((i) => i.url));
        const publicUrl = balancer.url.origin;
        const clientId = await registerPublicClient(provider.issuer, new URL("/elicit/login/callback", publicUrl).href, "Travel");
        const env = {
          ...(redis ? { REDIS_URL: redis.url } : { MCP_ELICIT_STORE: join(dir, "travel.db") }),
          MCP_ELICIT_STATE_KEY: key(),
          MCP_ELICIT_VAULT_KEY: key(),
          OIDC_ISSUER: provider.issuer,
          OIDC_CLIENT_ID: clientId,
          PUBLIC_URL: publicUrl,
        };
        instances = await Promise.all([0, 1].map(() => startRuntime("node", "test/deploy/fixtures/serve-route.ts", { env })));
        browser = await launchChromium();
      });
      after(async () => {
        await browser?.close();
        balancer?.close();
        await Promise.all(instances.map((i) => i.stop()));
        await provider?.close();
        await redis?.stop();
        if (dir) rmSync(dir, { recursive: true, force: true });
      });

      test(
        "2026-07-28: alice's payment link refuses bob signed in at the provider; alice signs in, pays on the hosted page, and its requests land on both instances",
        DEADLINE,
        async () => {
          const refusals: string[] = [];
          const person = new Traveler(undefined, async (link) => {
            // Bob, signed in at the same provider, opens alice's link first: refused, the flow stays pending.
            const bob = await browser.newContext();
            try {
              const page = await bob.newPage();
              page.setDefaultTimeout(30_000);
              await page.goto(link);
              await signInOnProvider(page, provider.issuer, "bob");
              await page.getByRole("heading", { name: "This link was made for someone else" }).waitFor();
              refusals.push(await page.locator("main").innerText());
            } finally {
              await bob.close();
            }
            const from = balancer.landed.length;
            const alice = await browser.newContext();
            try {
              const page = await alice.newPage();
              page.setDefaultTimeout(30_000);
              await page.goto(link);
              await signInOnProvider(page, provider.issuer, "alice");
              await page.getByRole("heading", { name: /Secure form from mcp-elicit-travel/ }).waitFor();
              await payWithTestCard(page);
            } finally {
              await alice.close();
            }
            const pages = balancer.landed.slice(from).filter((l) => l.path.startsWith("/elicit/"));
            assert.deepEqual(
              new Set(pages.map((l) => l.instance)),
              new Set([0, 1]),
              `the pages' requests went to both instances: ${JSON.stringify(pages)}`,
            );
            return { message: "", fields: ["cardNumber", "expiry", "cvc", "nameOnCard"], status: 200 };
          });
          const endpoint = balancer.url;
          const { accessToken } = await signIn({ issuer: provider.issuer, user: "alice", resource: endpoint.href, scopes: ["mcp:tools"] });
          const c = await travelClient(endpoint, "2026-07-28", person, accessToken);
          try {
            await payForBooking(c, person, await bookTrip(c, person));
          } finally {
            await c.close();
          }
          assert.equal(refusals.length, 1);
          assert.match(refusals[0]!, /You are signed in as bob/);
          assert.ok(!refusals[0]!.includes("alice"), "the refusal does not say whom the link was for");
        },
      );
    },
  );
}
