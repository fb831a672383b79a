// `elicit call --id-jag-from FILE` (the built bin): enterprise-managed authorization against a test
// identity provider and authorization server (test/helpers/enterprise-idp.ts) in front of serveHttp's
// own JWT check. The identity token is exchanged for an ID-JAG made for this server's authorization
// server and resource, the ID-JAG for a token; the tool sees the person. Refusals end with exit 2 and
// a message naming the OAuth code, never the identity token, the secret or the servers' descriptions.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { McpServer } from "@modelcontextprotocol/server";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { CLI_TEST, runCli, type RunResult } from "../helpers/cli.js";
import { AS_CLIENT, AS_SECRET, IDP_CLIENT, startEnterpriseIdp, type EnterpriseIdp } from "../helpers/enterprise-idp.js";
import { scratchFiles } from "../helpers/files.js";

const { dir, file } = scratchFiles("elicit-id-jag-cli-");
let idp: EnterpriseIdp;
let http: HttpServerHandle;
let idToken: string;

before(async () => {
  idp = await startEnterpriseIdp();
  idToken = await idp.idToken("ana");
  const kit = createElicitation();
  http = await serveHttp(
    () => {
      const server = new McpServer({ name: "reports", version: "1.0.0" });
      kit.registerTool(server, "whoami", { description: "Who is calling" }, (_args, ctx) => ({
        content: [{ type: "text", text: `${ctx.principal?.sub} via ${ctx.principal?.clientId}` }],
      }));
      return server;
    },
    { auth: { issuer: idp.asIssuer, scopes: ["mcp:tools"] } },
  );
});
after(async () => {
  await http.close();
  await idp.close();
});

let runs = 0;
async function elicit(flags: string[], env: Record<string, string> = {}): Promise<RunResult & { config: string }> {
  const config = join(dir, `config-${++runs}`);
  const r = await runCli(["call", "whoami", ...flags, "--issuer", idp.asIssuer, "--url", http.url.href], {
    env: { XDG_CONFIG_HOME: config, ELICIT_CLIENT_SECRET: AS_SECRET, BROWSER: "false", ...env },
  });
  return { ...r, config };
}

const idJagFile = (name: string, content: unknown) => file(name, content);
const idpOf = (extra: Record<string, unknown> = {}) => ({ issuer: idp.idpIssuer, clientId: IDP_CLIENT, ...extra });

function assertNoSecrets(r: RunResult, token = idToken) {
  for (const text of [r.stdout, r.stderr]) {
    assert.ok(!text.includes(token), "the identity token was printed");
    assert.ok(!text.includes(AS_SECRET), "the client secret was printed");
  }
  // elicit's own lines; the SDK's "[mcp-sdk]" warning on invalid_client quotes the description (not ours to change here).
  const ours = r.stderr.split("\n").filter((line) => !line.startsWith("[mcp-sdk]"));
  assert.ok(!ours.join("\n").includes("must not be printed"), "a server's error description was printed");
}

describe("elicit --id-jag-from", () => {
  test("exchanges the identity token for an ID-JAG, then for a token: the tool sees the person", CLI_TEST, async () => {
    const path = idJagFile("ana.json", { idToken, idp: idpOf() });
    const seen = idp.seen.length;
    const r = await elicit(["--id-jag-from", path, "--client-id", AS_CLIENT]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ana via mcp-host/);
    // The ID-JAG was made for this server's authorization server (audience) and this server (resource).
    assert.deepEqual(idp.seen.slice(seen), [`exchange for ${idp.asIssuer} ${http.url.href}`, "grant for ana"]);
    assert.equal(existsSync(join(r.config, "mcp-elicit", "oauth")), false, "nothing is written to the oauth folder");
    assertNoSecrets(r);
  });

  test("with the identity provider's token endpoint instead of its issuer", CLI_TEST, async () => {
    const path = idJagFile("endpoint.json", { idToken, idp: { tokenEndpoint: `${idp.idpIssuer}/token`, clientId: IDP_CLIENT } });
    const r = await elicit(["--id-jag-from", path, "--client-id", AS_CLIENT]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /ana via mcp-host/);
  });

  test("an expired identity token: exit 2, the refusal named, nothing printed that is secret", CLI_TEST, async () => {
    const expired = await idp.idToken("ana", { expired: true });
    const r = await elicit(["--id-jag-from", idJagFile("expired.json", { idToken: expired, idp: idpOf() }), "--client-id", AS_CLIENT]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /the identity provider refused the identity token \(invalid_grant\)/);
    assert.equal(r.stdout, "");
    assertNoSecrets(r, expired);
  });

  test("a wrong secret at the authorization server: exit 2, invalid_client, asked once", CLI_TEST, async () => {
    const seen = idp.seen.length;
    const path = idJagFile("wrong-secret.json", { idToken, idp: idpOf() });
    const r = await elicit(["--id-jag-from", path, "--client-id", AS_CLIENT], { ELICIT_CLIENT_SECRET: "not-the-secret" });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /refused the client's credentials \(invalid_client\)|refused this client/);
    assert.equal(idp.seen.slice(seen).filter((s) => s.startsWith("exchange")).length, 1, "the refused credentials were sent once");
    assertNoSecrets(r);
  });

  test("usage errors end with exit 2 before any server is contacted", CLI_TEST, async () => {
    const good = idJagFile("good.json", { idToken, idp: idpOf() });
    const cases: Array<[string[], RegExp]> = [
      [["--id-jag-from", good], /--id-jag-from needs --client-id/],
      [["--id-jag-from", join(dir, "missing.json"), "--client-id", AS_CLIENT], /file ".*missing\.json" cannot be read \(ENOENT\)/],
      [["--id-jag-from", idJagFile("not-json.json", "idToken=x"), "--client-id", AS_CLIENT], /is not JSON/],
      [["--id-jag-from", idJagFile("no-token.json", { idp: idpOf() }), "--client-id", AS_CLIENT], /has no "idToken"/],
      [
        ["--id-jag-from", idJagFile("no-idp.json", { idToken, idp: { clientId: IDP_CLIENT } }), "--client-id", AS_CLIENT],
        /idp\.issuer or idp\.tokenEndpoint/,
      ],
      [["--id-jag-from", good, "--jwt-bearer", good, "--client-id", AS_CLIENT], /give one/],
    ];
    const seen = idp.seen.length;
    for (const [flags, message] of cases) {
      const r = await elicit(flags, { ELICIT_CLIENT_SECRET: flags.includes("--client-id") ? AS_SECRET : "" });
      assert.equal(r.code, 2, flags.join(" "));
      assert.match(r.stderr, message, flags.join(" "));
      assertNoSecrets(r);
    }
    assert.equal(idp.seen.length, seen, "no server was asked");
  });
});
