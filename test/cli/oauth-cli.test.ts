// The sign-in options of the `elicit` bin against the travel server behind the local OpenID
// provider (in process): the browser started through BROWSER (a stand-in that signs in, records the
// address, or comes back wrong), a pre-registered confidential client, a bearer given by hand, and
// the usage errors. Every failure is exit 2 with a message naming what went wrong; no output, and
// no saved file, holds a secret that was not meant to be there.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startServer, type RunningServer } from "../../src/cli/serve.js";
import { BIN, runCli, type RunResult } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { discover, signIn } from "../helpers/oidc.js";

const { dir, file } = scratchFiles("elicit-oauth-cli-");
const STAND_IN = fileURLToPath(new URL("../helpers/sign-in-browser.ts", import.meta.url));
const BROWSER = `${process.execPath} --import tsx ${STAND_IN}`;
// Records the address it is given, in plain JavaScript (it must start fast: nobody signs in after it).
const RECORDER = file("record.mjs", 'import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.RECORD_TO, process.argv[2]);\n');

/** The file the recorder wrote; it runs detached, so it may finish after elicit has. */
async function recorded(path: string): Promise<URL> {
  for (let i = 0; i < 100 && !existsSync(path); i++) await new Promise((resolve) => setTimeout(resolve, 100));
  return new URL(readFileSync(path, "utf8"));
}
const ANSWERS = file("sign-in.yaml", '- match: "^Sign in"\n  action: accept\n');
const TRIP = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });

let served: RunningServer;
let url: string;
let issuer: string;
before(async () => {
  served = await startServer("travel", { http: "0", auth: true });
  url = served.url!.href;
  issuer = served.signIn!.issuer;
});
after(() => served.close());

let configs = 0;
/** `elicit call search_flights --url …` with its own config folder; `browser` is the stand-in's mode. */
async function search(
  extra: string[],
  env: Record<string, string> = {},
  config = join(dir, `config-${++configs}`),
): Promise<RunResult & { config: string }> {
  const r = await runCli(["call", "search_flights", "--args", TRIP, "--url", url, ...extra], {
    env: { XDG_CONFIG_HOME: config, BROWSER, ELICIT_SIGN_IN_TIMEOUT: "20", ...env },
    timeoutMs: 40_000,
  });
  return { ...r, config };
}

const savedFiles = (config: string) => {
  const folder = join(config, "mcp-elicit", "oauth");
  return existsSync(folder) ? readdirSync(folder).map((f) => readFileSync(join(folder, f), "utf8")) : [];
};

describe("the browser is started through BROWSER", () => {
  test("it gets the authorization URL, after consent; nobody signs in: the wait ends with exit 2 and says what it waited for", async () => {
    const to = join(dir, "recorded-url");
    const r = await search(["--answers", ANSWERS], {
      BROWSER: `${process.execPath} ${RECORDER}`,
      RECORD_TO: to,
      ELICIT_SIGN_IN_TIMEOUT: "1",
    });
    assert.equal(r.code, 2);
    const opened = await recorded(to);
    assert.equal(opened.origin, issuer);
    assert.equal(opened.searchParams.get("resource"), url);
    assert.match(r.stderr, /answers entry \[0\] \(match "\^Sign in"\) answered "Sign in to 127\.0\.0\.1:\d+/);
    assert.match(
      r.stderr,
      /elicit: could not sign in to http:\/\/127\.0\.0\.1:\d+\/mcp: the sign-in at 127\.0\.0\.1:\d+ did not finish within 1 s \(the browser never reached http:\/\/127\.0\.0\.1:\d+\/callback\)\./,
    );
    assert.equal(r.stdout, "");
  });

  test(
    "no BROWSER and no display: the address is printed on a line of its own instead",
    { skip: process.platform !== "linux" },
    async () => {
      const r = await search(["--answers", ANSWERS], { BROWSER: "", DISPLAY: "", WAYLAND_DISPLAY: "", ELICIT_SIGN_IN_TIMEOUT: "1" });
      assert.equal(r.code, 2);
      const printed = /^elicit: no display to open a browser on; open this address in your browser:\n(\S+)$/m.exec(r.stderr);
      assert.ok(printed, r.stderr);
      assert.equal(new URL(printed[1]!).origin, issuer);
    },
  );

  test("without consent nothing is opened, and the call stops: exit 2", async () => {
    const to = join(dir, "never-recorded");
    const r = await search([], { BROWSER: `${process.execPath} ${RECORDER}`, RECORD_TO: to });
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /consent to sign in at 127\.0\.0\.1 was not given \(an answers file entry matching "Sign in" with action: accept gives it\)/,
    );
    assert.equal(existsSync(to), false);
  });

  test("a redirect with an error: exit 2 naming the OAuth error, never the server's description", async () => {
    const r = await search(["--answers", ANSWERS], { SIGN_IN_BROWSER: "error:access_denied" });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /could not sign in to .*: the authorization server refused the sign-in \(access_denied\)\./);
    assert.doesNotMatch(r.stderr, /\u001b|own words/);
  });

  test("a redirect whose state is not the one sent (any web page can send one) does not end the sign-in: the real one then succeeds", async () => {
    const r = await search(["--answers", ANSWERS], { SIGN_IN_BROWSER: "forged-state" });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(savedFiles(r.config).length, 1);
    assert.doesNotMatch(r.stderr + r.stdout, /a-code-from-elsewhere|not-the-clients-state/);
  });
});

describe("a pre-registered confidential client", () => {
  test("--client-id and --client-secret sign in; the secret is neither printed nor written down", async () => {
    const meta = await discover(issuer);
    const registered = await fetch(meta.registration_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        client_name: "pre-registered",
        application_type: "native",
        redirect_uris: ["http://127.0.0.1/callback"],
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
      }),
    }).then((r) => r.json() as Promise<{ client_id: string; client_secret: string }>);
    assert.ok(registered.client_secret);
    // A secret goes only to the authorization server it belongs to: --issuer names it.
    const pinned = ["--issuer", issuer];
    const first = await search(
      ["--answers", ANSWERS, "--client-id", registered.client_id, "--client-secret", registered.client_secret, ...pinned],
      { SIGN_IN_BROWSER: "user:alice" },
    );
    assert.equal(first.code, 0, first.stderr);
    const saved = savedFiles(first.config);
    assert.equal(saved.length, 1);
    assert.ok(!saved[0]!.includes(registered.client_secret), "the secret given by hand is not stored");
    const tokens = JSON.parse(saved[0]!).issuers[issuer].tokens;
    // The next run refreshes with the secret given again (ELICIT_CLIENT_SECRET this time), without a sign-in.
    const config = first.config;
    const file = JSON.parse(saved[0]!);
    file.issuers[issuer].tokens.expires_at = Date.now() - 1000;
    writeFileSync(join(config, "mcp-elicit", "oauth", readdirSync(join(config, "mcp-elicit", "oauth"))[0]!), JSON.stringify(file));
    const second = await search(
      ["--client-id", registered.client_id, ...pinned],
      { ELICIT_CLIENT_SECRET: registered.client_secret },
      config,
    );
    assert.equal(second.code, 0, second.stderr);
    assert.doesNotMatch(second.stderr, /Sign in/);
    for (const output of [first.stdout, first.stderr, second.stdout, second.stderr])
      for (const secret of [registered.client_secret, tokens.access_token, tokens.refresh_token]) assert.ok(!output.includes(secret));
  });
});

describe("a saved sign-in that cannot be renewed", () => {
  test("a revoked refresh token: the next call says the sign-in expired; without consent to sign in again, exit 2", async () => {
    const first = await search(["--answers", ANSWERS], { SIGN_IN_BROWSER: "user:demo" });
    assert.equal(first.code, 0, first.stderr);
    const folder = join(first.config, "mcp-elicit", "oauth");
    const path = join(folder, readdirSync(folder)[0]!);
    const saved = JSON.parse(readFileSync(path, "utf8"));
    const { client, tokens } = saved.issuers[issuer];
    const meta = await discover(issuer);
    const revoked = await fetch(meta.revocation_endpoint!, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.refresh_token, client_id: client.client_id }),
    });
    assert.equal(revoked.status, 200);
    saved.issuers[issuer].tokens.expires_at = Date.now() - 1000;
    writeFileSync(path, JSON.stringify(saved));
    const r = await search([], {}, first.config);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /could not sign in to .*: the saved sign-in has expired and could not be renewed, and consent to sign in at 127\.0\.0\.1 was not given/,
    );
    for (const secret of [tokens.access_token, tokens.refresh_token]) assert.ok(!r.stderr.includes(secret) && !r.stdout.includes(secret));
  });
});

describe("--token: a bearer given by hand", () => {
  test("is sent as it is and never stored; ELICIT_TOKEN works too", async () => {
    const { accessToken } = await signIn({ issuer, user: "bob", resource: url, scopes: ["mcp:tools"] });
    const r = await search(["--token", accessToken]);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes(accessToken) && !r.stderr.includes(accessToken));
    assert.deepEqual(savedFiles(r.config), []);
    const fromEnv = await search([], { ELICIT_TOKEN: accessToken });
    assert.equal(fromEnv.code, 0, fromEnv.stderr);
  });

  test("with a stdio server it is not used, and elicit says so (the token not quoted)", async () => {
    const r = await runCli(["tools", "--token", "unused-token-value", "--", process.execPath, BIN, "serve", "travel"]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /elicit: a token was given but not used: a stdio server gets no HTTP authorization\./);
    assert.doesNotMatch(r.stderr + r.stdout, /unused-token-value/);
  });

  test("a token the server refuses: exit 2, the token not quoted, no sign-in started", async () => {
    const r = await search(["--token", "refused-token-value", "--answers", ANSWERS], {
      BROWSER: `${process.execPath} ${RECORDER}`,
      RECORD_TO: join(dir, "no"),
    });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the server refused the token given with --token or ELICIT_TOKEN \(HTTP 401\)/);
    assert.doesNotMatch(r.stderr, /refused-token-value/);
    assert.equal(existsSync(join(dir, "no")), false);
  });
});

describe("usage", () => {
  test("a secret without a client id, a metadata URL that is not https, a token with spaces: exit 2, the secret not echoed", async () => {
    const secret = await runCli(["call", "x", "--url", "http://127.0.0.1:9/mcp", "--client-secret", "s3cr3t-value"]);
    assert.equal(secret.code, 2);
    assert.match(secret.stderr, /--client-secret \(or ELICIT_CLIENT_SECRET\) needs --client-id/);
    assert.doesNotMatch(secret.stderr, /s3cr3t-value/);
    const cimd = await runCli(["call", "x", "--url", "http://127.0.0.1:9/mcp", "--client-metadata-url", "http://example.com/client.json"]);
    assert.equal(cimd.code, 2);
    assert.match(cimd.stderr, /--client-metadata-url must be an https URL with a path/);
    const token = await runCli(["call", "x", "--url", "http://127.0.0.1:9/mcp", "--token", "two words"]);
    assert.equal(token.code, 2);
    assert.match(token.stderr, /--token must be a bearer token: printable ASCII without spaces/);
    assert.doesNotMatch(token.stderr, /two words/);
  });

  test("elicit logout with nothing saved, then after a sign-in: says what it forgot", async () => {
    const config = join(dir, "logout-all");
    const none = await runCli(["logout"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(none.code, 0);
    assert.equal(none.stderr, "elicit: no saved sign-ins; nothing to forget.\n");
    const signedIn = await search(["--answers", ANSWERS], { SIGN_IN_BROWSER: "user:demo" }, config);
    assert.equal(signedIn.code, 0, signedIn.stderr);
    const all = await runCli(["logout"], { env: { XDG_CONFIG_HOME: config } });
    assert.equal(all.stderr, `elicit: forgot 1 sign-in(s):\n  ${url}\n`);
    assert.deepEqual(savedFiles(config), []);
  });
});
