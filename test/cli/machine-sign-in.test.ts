// `elicit call|tools --client-credentials` (the built bin) against a server behind serveHttp's bearer
// check and the local OpenID provider, both in this process: a machine client with a secret (from
// ELICIT_CLIENT_SECRET) and one with a key file (private_key_jwt). No browser is started (BROWSER
// would record it), nothing is asked, nothing is written to the config folder; a wrong secret ends
// with exit 2 and a message naming the refusal; no output ever holds the secret or the key.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { generateKeyPairSync } from "node:crypto";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/server";
import { startOpenIdProvider, type OpenIdProvider } from "../../src/oidc/openid-provider.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { CLI_TEST, runCli, type RunResult } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { startRecordingAuthorizationServer, type RecordingAuthorizationServer } from "../helpers/recording-authorization-server.js";

const SECRET = "cli-machine-secret-never-printed";
const keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
const PRIVATE_JWK = { ...keys.privateKey.export({ format: "jwk" }), kid: "ci-key" };
const PUBLIC_JWK = { ...keys.publicKey.export({ format: "jwk" }), kid: "ci-key", alg: "ES256", use: "sig" };

const { dir, file } = scratchFiles("elicit-machine-cli-");
const KEY_FILE = file("client.jwk", JSON.stringify(PRIVATE_JWK));
const BROWSED = join(dir, "browser-was-started");
const RECORDER = file(
  "record.mjs",
  'import { writeFileSync } from "node:fs";\nwriteFileSync(process.env.RECORD_TO, process.argv[2] ?? "");\n',
);

let op: OpenIdProvider;
let http: HttpServerHandle;
/** A hostile MCP server: its protected-resource metadata names an authorization server of its own. */
let hostile: HttpServerHandle;
let attacker: RecordingAuthorizationServer;
before(async () => {
  attacker = await startRecordingAuthorizationServer();
  op = await startOpenIdProvider({
    clients: [
      { clientId: "ci-job", clientSecret: SECRET },
      { clientId: "ci-signer", jwks: { keys: [PUBLIC_JWK] } },
    ],
  });
  const kit = createElicitation();
  const serve = (issuer: string) =>
    serveHttp(
      () => {
        const server = new McpServer({ name: "reports", version: "1.0.0" });
        kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
          content: [{ type: "text", text: `called by ${ctx.principal?.clientId} with ${ctx.principal?.scopes.join(" ")}` }],
        }));
        return server;
      },
      { auth: { issuer, scopes: ["mcp:tools"] } },
    );
  http = await serve(op.issuer);
  hostile = await serve(attacker.issuer);
});
after(async () => {
  await http.close();
  await hostile.close();
  await attacker.close();
  await op.close();
});

let configs = 0;
async function elicit(args: string[], env: Record<string, string> = {}, server = http): Promise<RunResult & { config: string }> {
  const config = join(dir, `config-${++configs}`);
  const r = await runCli([...args, "--url", server.url.href], {
    env: { XDG_CONFIG_HOME: config, BROWSER: `${process.execPath} ${RECORDER}`, RECORD_TO: BROWSED, ELICIT_CLIENT_SECRET: "", ...env },
  });
  return { ...r, config };
}

function assertNoSecrets(r: RunResult) {
  for (const text of [r.stdout, r.stderr]) {
    assert.ok(!text.includes(SECRET), "the secret was printed");
    assert.ok(!text.includes(String(PRIVATE_JWK.d)), "the key was printed");
  }
}

describe("elicit --client-credentials", () => {
  test("with ELICIT_CLIENT_SECRET: the tool's result, no browser, no question, nothing saved", CLI_TEST, async () => {
    const r = await elicit(["call", "whoami", "--client-credentials", "--client-id", "ci-job", "--issuer", op.issuer], {
      ELICIT_CLIENT_SECRET: SECRET,
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /called by ci-job with mcp:tools/);
    assert.equal(existsSync(BROWSED), false);
    assert.equal(existsSync(join(r.config, "mcp-elicit", "oauth")), false);
    assertNoSecrets(r);
  });

  test("with --client-key (a JWK file, private_key_jwt): elicit tools lists the server's tools", CLI_TEST, async () => {
    const r = await elicit([
      "tools",
      "--client-credentials",
      "--client-id",
      "ci-signer",
      "--client-key",
      KEY_FILE,
      "--scope",
      "mcp:tools",
      "--issuer",
      op.issuer,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /"whoami"/);
    assertNoSecrets(r);
  });

  test("a wrong secret: exit 2, the refusal named, the secret never printed", CLI_TEST, async () => {
    const r = await elicit([
      "call",
      "whoami",
      "--client-credentials",
      "--client-id",
      "ci-job",
      "--client-secret",
      `${SECRET}-wrong`,
      "--issuer",
      op.issuer,
    ]);
    assert.equal(r.code, 2);
    assert.match(
      r.stderr,
      /elicit: could not sign in to http:\/\/127\.0\.0\.1:\d+\/mcp: the authorization server refused this client \(invalid_client/,
    );
    assert.equal(r.stdout, "");
    assertNoSecrets(r);
    assert.ok(!r.stderr.includes(`${SECRET}-wrong`));
  });

  test("a server that names another authorization server: exit 2, both named, nothing sent there", CLI_TEST, async () => {
    for (const flags of [
      ["--client-credentials", "--client-id", "ci-job", "--client-secret", SECRET],
      ["--client-credentials", "--client-id", "ci-signer", "--client-key", KEY_FILE],
    ]) {
      const r = await elicit(["call", "whoami", ...flags, "--issuer", op.issuer], {}, hostile);
      assert.equal(r.code, 2, r.stderr);
      assert.ok(r.stderr.includes(`the MCP server named the authorization server ${JSON.stringify(attacker.issuer)}`), r.stderr);
      assert.ok(r.stderr.includes(`belong to ${JSON.stringify(op.issuer)}`), r.stderr);
      assert.equal(r.stdout, "");
      assertNoSecrets(r);
    }
    assert.deepEqual(attacker.received, []);
  });

  test("usage errors end with exit 2 before any server is contacted", CLI_TEST, async () => {
    const cases: Array<[string[], RegExp]> = [
      [["--client-credentials", "--client-id", "ci-job", "--client-secret", SECRET], /--client-credentials needs --issuer URL/],
      [["--jwt-bearer", KEY_FILE], /--jwt-bearer needs --issuer URL/],
      [["--client-id", "app", "--client-secret", SECRET], /--client-secret needs --issuer URL/],
      [["--issuer", "ftp://auth.example"], /--issuer must be an https URL/],
      [["--client-credentials", "--issuer", op.issuer], /--client-credentials needs --client-id/],
      [
        ["--client-credentials", "--client-id", "ci-job", "--issuer", op.issuer],
        /needs the client's secret \(ELICIT_CLIENT_SECRET or --client-secret\) or its private key/,
      ],
      [
        ["--client-credentials", "--client-id", "ci-job", "--client-secret", SECRET, "--client-key", KEY_FILE, "--issuer", op.issuer],
        /not both/,
      ],
      [
        ["--client-credentials", "--client-id", "ci-job", "--client-key", join(dir, "missing.pem"), "--issuer", op.issuer],
        /--client-key ".*missing\.pem" cannot be read \(ENOENT\)/,
      ],
      [
        ["--client-credentials", "--client-id", "ci-job", "--client-key", RECORDER, "--issuer", op.issuer],
        /cannot sign: it is not a private key in PEM/,
      ],
      [["--client-key", KEY_FILE], /add --client-credentials/],
      [["--scope", "mcp:tools"], /--scope applies to --client-credentials, --jwt-bearer and --id-jag-from/],
      [
        ["--jwt-bearer", join(dir, "missing.jwt"), "--issuer", op.issuer],
        /the workload's JWT file ".*missing\.jwt" cannot be read \(ENOENT\)/,
      ],
      [["--client-credentials", "--jwt-bearer", KEY_FILE, "--client-id", "x"], /give one/],
    ];
    for (const [flags, message] of cases) {
      const r = await elicit(["call", "whoami", ...flags]);
      assert.equal(r.code, 2, flags.join(" "));
      assert.match(r.stderr, message, flags.join(" "));
      assertNoSecrets(r);
    }
  });
});
