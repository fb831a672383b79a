// Signing in from the command line, end to end: the travel server behind the local OpenID provider,
// the built `elicit` bin with --no-browser (it prints the sign-in address), and headless Chromium
// signing in as demo/demo on the provider's own pages. Then: the saved sign-in reused without a
// login, an expired access token refreshed, `elicit logout` forgetting it. No run prints a token or
// a client secret.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { SERVERS } from "../../src/cli/serve.js";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { serveHttp } from "../../src/server/http/serve.js";
import { BIN, runCli, type RunResult } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { launchChromium } from "../helpers/chromium.js";
import { needs } from "../helpers/needs.js";
import { startElicit } from "../helpers/webui.js";

const { dir, file } = scratchFiles("elicit-oauth-login-");
const CONFIG = join(dir, "config");
const ENV = { XDG_CONFIG_HOME: CONFIG, ELICIT_SIGN_IN_TIMEOUT: "60", BROWSER: undefined, ELICIT_TOKEN: undefined } as const;
const TRIP = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });
const ANSWERS = file(
  "answers.yaml",
  `- match: "^Sign in"
  action: accept
- match: "Barcelona"
  action: accept
  content: { confirmBooking: true, seatPreference: aisle, roomType: garden view, travelInsurance: true }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
`,
);
const SLOW = { timeout: 60_000 };

let provider: OpenIdProvider;
let server: { url: URL; close(): Promise<void> };
let browser: Browser;
/** Every token and secret seen in the token file: no output may contain one. */
const secrets = new Set<string>();
/** Every run's output, checked for them at the end. */
const outputs: string[] = [];
// Without Chromium the whole file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const skip = needs("chromium");

before(async () => {
  if (skip) return;
  // Short-lived access tokens, so that the refresh is a real one.
  provider = await startOpenIdProvider({ accessTokenTtlS: 3, defaultResourceScopes: ["mcp:tools"] });
  server = await serveHttp(SERVERS.travel!.factory(), {
    host: "127.0.0.1",
    port: 0,
    auth: { issuer: provider.issuer, scopes: ["mcp:tools"] },
  });
  browser = await launchChromium();
});
after(async () => {
  await browser?.close();
  await server?.close();
  await provider?.close();
});

/** The one file of the saved sign-in, its content, and its mode. */
function savedSignIn(): { path: string; mode: number; tokens: { access_token: string; refresh_token?: string; expires_at?: number } } {
  const folder = join(CONFIG, "mcp-elicit", "oauth");
  const files = readdirSync(folder).filter((f) => f.endsWith(".json"));
  assert.equal(files.length, 1, `one saved sign-in: ${files.join(", ")}`);
  const path = join(folder, files[0]!);
  const content = JSON.parse(readFileSync(path, "utf8"));
  const issuer = content.issuers[content.lastIssuer];
  for (const value of [issuer.tokens?.access_token, issuer.tokens?.refresh_token, issuer.client?.client_secret])
    if (value) secrets.add(value);
  return { path, mode: statSync(path).mode & 0o777, tokens: issuer.tokens };
}

const searchFlights = async (): Promise<RunResult> => {
  const r = await runCli(["call", "search_flights", "--args", TRIP, "--url", server.url.href, "--no-browser"], {
    env: ENV as never,
    timeoutMs: 30_000,
  });
  outputs.push(r.stdout, r.stderr);
  return r;
};

describe("elicit call against a server that requires sign-in", { skip }, () => {
  test("the first call prints the sign-in address; Chromium signs in as demo; the booking goes through", SLOW, async () => {
    const elicit = startElicit(
      BIN,
      ["call", "book_trip", "--args", TRIP, "--url", server.url.href, "--no-browser", "--answers", ANSWERS],
      ENV,
    );
    const page = await browser.newPage();
    try {
      const address = (await elicit.waitFor(/^(http:\/\/127\.0\.0\.1:\d+\/\S*)$/m, "stderr"))[1]!;
      assert.ok(address.startsWith(provider.issuer + "/"), `the address is the provider's: ${address}`);
      assert.match(elicit.stderr(), /answered "Sign in to 127\.0\.0\.1:\d+: it requires authorization/);
      assert.match(elicit.stderr(), /not opening a browser \(--no-browser\); open this address in your browser:/);
      await page.goto(address);
      await page.getByLabel("Username").fill("demo");
      await page.getByLabel("Password").fill("demo");
      await page.getByRole("button", { name: "Sign in" }).click();
      await page.getByRole("button", { name: "Allow" }).click();
      await page.getByText("You are signed in").waitFor(SLOW);
      assert.equal(await elicit.exit, 0, elicit.stderr());
      const result = JSON.parse(elicit.stdout());
      assert.equal(result.structuredContent.booked, true);
      assert.match(elicit.stderr(), /Waiting for the sign-in to come back to http:\/\/127\.0\.0\.1:\d+\/callback/);
    } finally {
      outputs.push(elicit.stdout(), elicit.stderr());
      elicit.kill();
      await page.close();
    }
    const saved = savedSignIn();
    assert.equal(saved.mode, 0o600);
    assert.equal(statSync(join(CONFIG, "mcp-elicit", "oauth")).mode & 0o777, 0o700);
    assert.ok(saved.tokens.refresh_token);
  });

  test("the next call uses the saved sign-in: no address printed, no consent", SLOW, async () => {
    const r = await searchFlights();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(Array.isArray(JSON.parse(r.stdout).structuredContent.flights));
    assert.doesNotMatch(r.stderr, /Sign in|open this address|Waiting for the sign-in/);
  });

  test("an expired access token is refreshed, without a sign-in", SLOW, async () => {
    const before = savedSignIn().tokens;
    // Waits out the token's life (3 s): the next call must not send it.
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, before.expires_at! - Date.now()) + 100));
    const r = await searchFlights();
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr, /Sign in|open this address/);
    const now = savedSignIn().tokens;
    assert.notEqual(now.access_token, before.access_token);
    assert.notEqual(now.refresh_token, before.refresh_token);
  });

  test("elicit logout URL forgets it; the next call needs a sign-in again (and, with no answers, stops: exit 2)", SLOW, async () => {
    const { path } = savedSignIn();
    const out = await runCli(["logout", server.url.href], { env: ENV as never });
    outputs.push(out.stdout, out.stderr);
    assert.equal(out.code, 0);
    assert.equal(out.stderr, `elicit: forgot the sign-in to ${server.url.href}.\n`);
    assert.throws(() => statSync(path), /ENOENT/);
    const again = await runCli(["logout", server.url.href], { env: ENV as never });
    assert.match(again.stderr, /no sign-in saved for/);
    const r = await searchFlights();
    assert.equal(r.code, 2);
    assert.match(r.stderr, /could not sign in to .*consent to sign in at 127\.0\.0\.1 was not given/);
  });

  test("no run printed a token or a client secret", () => {
    assert.ok(secrets.size >= 4, "tokens from the sign-in and the refresh were seen");
    for (const output of outputs) for (const secret of secrets) assert.ok(!output.includes(secret), "a secret reached the terminal");
  });
});
