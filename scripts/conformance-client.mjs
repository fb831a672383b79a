#!/usr/bin/env node
// `elicit` as the client of the official MCP conformance suite's client scenarios. The suite runs
//   conformance client --command "node scripts/conformance-client.mjs" --scenario NAME
// and calls this with the scenario server's URL as the last argument, the scenario's name in
// MCP_CONFORMANCE_SCENARIO, the protocol revision to speak in MCP_CONFORMANCE_PROTOCOL_VERSION (0.2.x;
// `--protocol auto` when absent) and scenario data in MCP_CONFORMANCE_CONTEXT.
//
// Each scenario maps to what a person would type: `elicit tools` or `elicit call TOOL --args JSON
// [--answers FILE]` (answers files in scripts/conformance/answers/), each with the exit code it must
// end with. A step that ends otherwise prints "conformance-client: UNEXPECTED …" and this exits 1; the
// runner (scripts/conformance-clients.ts) fails the scenario on that line even where the suite itself
// tolerates a client error. Plain JavaScript on purpose: the suite starts it once per scenario.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/client";

const here = dirname(fileURLToPath(import.meta.url));
const ELICIT = join(here, "..", "dist", "cli", "main.js");
const ANSWERS = join(here, "conformance", "answers");
// The auth scenarios' authorization servers redirect at once: this stand-in browser follows them.
const BROWSER = `${process.execPath} ${join(here, "conformance", "follow-redirect.mjs")}`;

const url = process.argv.at(-1);
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
// 0.2.x names the revision to speak; 0.1.x does not, and gets the CLI's default (auto: server/discover
// first, initialize with whatever 2025-era version the server picks when it has no discover).
const protocol = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "auto";
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");

if (!url || !/^https?:\/\//.test(url) || !scenario) {
  console.error("usage: MCP_CONFORMANCE_SCENARIO=NAME conformance-client.mjs SERVER_URL (the conformance suite runs it so)");
  process.exit(2);
}

/** `elicit tools`: connect, list every tool (the SDK's view), print them as JSON. */
const list = (expect = 0, why = "lists the tools") => ({ args: ["tools"], expect, why });
/** `elicit call TOOL --args JSON [--answers FILE]`. */
const call = (tool, args = {}, { answers, expect = 0, why = `calls ${tool}` } = {}) => ({
  args: ["call", tool, "--args", JSON.stringify(args), ...(answers ? ["--answers", join(ANSWERS, answers)] : [])],
  expect,
  why,
});

// The tools of http-invalid-tool-headers whose x-mcp-header declarations are invalid (empty, on a
// non-primitive or number, duplicated, not an RFC 9110 token): each is tried, and must be refused.
const INVALID_HEADER_TOOLS = [
  "invalid_empty_header",
  "invalid_object_header",
  "invalid_array_header",
  "invalid_null_header",
  "invalid_number_header",
  "invalid_duplicate_same_case",
  "invalid_duplicate_diff_case",
  "invalid_space_in_name",
  "invalid_colon_in_name",
  "invalid_non_ascii_name",
  "invalid_control_char_name",
];

/**
 * Scenario → steps. A plan that is a function makes its steps from the scenario's context; a step that
 * is a function makes itself from the stdout of the steps before it (tools/list → tools/call).
 */
const PLAN = {
  initialize: [list()],
  tools_call: [call("add_numbers", { a: 2, b: 3 })],
  "elicitation-sep1034-client-defaults": [
    call(
      "test_client_elicitation_defaults",
      {},
      { answers: "sep1034-accept-defaults.yaml", why: "accepts the form empty: the client applies the defaults" },
    ),
  ],
  "sse-retry": [call("test_reconnection", {}, { why: "waits through the closed SSE stream; the result comes on the resumed GET stream" })],
  "request-metadata": [list(0, "lists the tools; the first request is refused -32022 and retried at 2026-07-28")],
  "sep-2322-client-request-state": [
    call("test_mrtr_echo_state", {}, { answers: "sep2322-confirm.yaml", why: "answers input_required and echoes requestState" }),
    call("test_mrtr_no_state", {}, { answers: "sep2322-confirm.yaml", why: "answers input_required without requestState" }),
    call("test_mrtr_unrelated", {}, { why: "an unrelated call carries no inputResponses or requestState" }),
    call("test_mrtr_no_result_type", {}, { why: "a result without resultType is complete" }),
  ],
  "http-standard-headers": [call("test_headers"), call("my-hyphenated-tool")],
  "http-custom-headers": () =>
    (context.toolCalls ?? []).map((c) =>
      call(c.name, c.arguments ?? {}, { why: "mirrors x-mcp-header parameters into Mcp-Param-* headers" }),
    ),
  "http-invalid-tool-headers": [
    call("valid_tool", { region: "us-west1" }, { why: "a valid tool is still called" }),
    ...INVALID_HEADER_TOOLS.map((tool) => call(tool, {}, { expect: 2, why: "refused: the SDK excluded it" })),
  ],
  // The scenario's server answers tools/list only (-32601 to tools/call): what it checks is that the
  // client never fetches the network $ref, here while `call` checks --args against that schema.
  "json-schema-ref-no-deref": [
    call(
      "lookup_user",
      { id: "ana-1" },
      { expect: 1, why: "checks --args without fetching the $ref; the server has no tools/call (-32601)" },
    ),
  ],
  "json-schema-2020-12-preservation": [
    list(0, "lists the tools, to echo one's inputSchema back"),
    (outputs) => {
      const listed = JSON.parse(outputs[0] || "{}").tools?.find((t) => t.name === "json_schema_2020_12_tool");
      return call(
        "json_schema_echo",
        { schema: listed?.inputSchema ?? {} },
        { why: "echoes the inputSchema elicit received, as it received it" },
      );
    },
  ],
};

/**
 * auth/*: `elicit call test-tool` (the scenario servers' one tool), signing in on the way: consent from
 * the answers file, the browser through BROWSER. A pre-registered client comes from the context; the
 * client metadata document URL is the one the suite's CIMD authorization server accepts (elicit uses
 * it only where the server advertises client_id_metadata_document_supported).
 */
const REFUSED = {
  // Scenarios whose server must be refused: the sign-in ends with exit 2 and nothing is called.
  "auth/resource-mismatch": "the protected resource names another server than the one called",
  "auth/iss-wrong-issuer": "the redirect's iss names another authorization server (RFC 9207)",
  "auth/iss-unexpected": "the redirect carries an iss the server never advertised",
  "auth/iss-supported-missing": "the server advertises iss but the redirect has none",
  "auth/metadata-issuer-mismatch": "the metadata's issuer is not the server it was fetched from (RFC 8414 §3.3)",
  "auth/iss-normalized": "the redirect's iss is the issuer with a trailing slash: compared as written, not normalized (RFC 9207)",
  "auth/scope-retry-limit": "the server keeps answering 403 insufficient_scope after the step-up",
};
/**
 * The --issuer a hand-given client's credentials are pinned to. A person would copy it from their
 * authorization server's settings; the scenarios' servers are on random ports, so this harness, which
 * plays that person, reads it from the scenario (its context, or its own discovery) before elicit runs.
 */
async function operatorIssuer() {
  // Behind the gateway (scripts/conformance/gateway-client.mjs) the URL is the gateway's: it says which.
  if (process.env.CONFORMANCE_ISSUER) return process.env.CONFORMANCE_ISSUER;
  if (context.issuer) return context.issuer;
  const info = await discoverOAuthServerInfo(url);
  return info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
}

async function authPlan(name) {
  const flags = ["--client-metadata-url", "https://conformance-test.local/client-metadata.json"];
  if (context.client_id) flags.push("--client-id", context.client_id);
  if (context.client_secret) flags.push("--client-secret", context.client_secret, "--issuer", await operatorIssuer());
  const step = call("test-tool", {}, { answers: "sign-in.yaml", why: "signs in (consent from the answers file) and calls test-tool" });
  const refused = REFUSED[name];
  return [{ ...step, args: [...step.args, ...flags], ...(refused ? { expect: 2, why: `refuses the sign-in: ${refused}` } : {}) }];
}

/**
 * Sign-in with no person: `elicit call test-tool` with --client-credentials (the secret in
 * ELICIT_CLIENT_SECRET, or the private key in a file for private_key_jwt) or --jwt-bearer FILE (the
 * workload's JWT). No answers file: nothing may be asked, and no browser may be needed.
 */
const contextFile = (name, text) => {
  const path = join(config, name);
  writeFileSync(path, text, { mode: 0o600 });
  return path;
};
const machine = async (flags, env = {}, why) => ({
  ...call("test-tool", {}, { why }),
  args: [...call("test-tool").args, ...flags, "--issuer", await operatorIssuer()],
  env,
});
Object.assign(PLAN, {
  "auth/client-credentials-basic": () => [
    machine(
      ["--client-credentials", "--client-id", context.client_id],
      { ELICIT_CLIENT_SECRET: context.client_secret },
      "client_credentials with the secret",
    ),
  ],
  "auth/client-credentials-jwt": () => [
    machine(
      ["--client-credentials", "--client-id", context.client_id, "--client-key", contextFile("client-key.pem", context.private_key_pem)],
      {},
      "client_credentials with a JWT signed by the client's key (private_key_jwt)",
    ),
  ],
  "auth/wif-jwt-bearer": () => [
    machine(
      ["--jwt-bearer", contextFile("workload.jwt", context.valid_jwt), "--client-id", context.client_id],
      {},
      "the JWT bearer grant with the workload's JWT",
    ),
  ],
});

/**
 * Enterprise-managed authorization (SEP-990): the person's identity token and their identity provider
 * in an --id-jag-from file; elicit exchanges it there for an ID-JAG (RFC 8693), then the ID-JAG for a
 * token at the MCP server's authorization server (JWT bearer grant), as --client-id with its secret.
 */
const enterprise = () => [
  machine(
    [
      "--id-jag-from",
      contextFile(
        "id-jag.json",
        JSON.stringify({
          idToken: context.idp_id_token,
          idp: { issuer: context.idp_issuer, tokenEndpoint: context.idp_token_endpoint, clientId: context.idp_client_id },
        }),
      ),
      "--client-id",
      context.client_id,
    ],
    { ELICIT_CLIENT_SECRET: context.client_secret },
    "exchanges the identity token for an ID-JAG, then the ID-JAG for a token",
  ),
];
PLAN["auth/cross-app-access-complete-flow"] = enterprise;
PLAN["auth/enterprise-managed-authorization"] = enterprise;

/**
 * DPoP (RFC 9449, SEP-1932): a person's sign-in (consent from the answers file, the stand-in browser)
 * with --dpop: a proof on the token request, `Authorization: DPoP` and a fresh proof on every MCP
 * request, each server's DPoP-Nonce honoured once (the -nonce variant).
 */
const dpop = async () => {
  const [step] = await authPlan("auth/dpop");
  return [{ ...step, args: [...step.args, "--dpop"], why: "signs in with --dpop and calls test-tool with DPoP proofs" }];
};
PLAN["auth/dpop"] = dpop;
PLAN["auth/dpop-nonce"] = dpop;

/** Scenarios without an entry: the skills extension (sep-2640-*) gets a listing, like any server. */
function planFor(name) {
  const plan = PLAN[name];
  if (plan) return plan;
  if (name.startsWith("auth/")) return authPlan(name);
  if (!name.startsWith("sep-2640-")) console.error(`conformance-client: no plan for scenario ${name}; listing the tools only`);
  return [list()];
}

let failed = false;
const outputs = [];
// Sign-ins are kept per run, in a config folder of their own, removed at the end.
const config = mkdtempSync(join(tmpdir(), "elicit-conformance-config-"));
process.on("exit", () => rmSync(config, { recursive: true, force: true }));
const run = (step) => {
  const argv = [ELICIT, ...step.args, "--url", url, "--protocol", protocol];
  console.error(`conformance-client: ${scenario}: elicit ${step.args.join(" ")} (${step.why}; expect exit ${step.expect})`);
  const r = spawnSync(process.execPath, argv, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, BROWSER, XDG_CONFIG_HOME: config, ELICIT_SIGN_IN_TIMEOUT: "20", ...step.env },
  });
  process.stdout.write(r.stdout ?? "");
  outputs.push(r.stdout ?? "");
  const code = r.status ?? -1;
  if (code !== step.expect) {
    failed = true;
    console.error(`conformance-client: UNEXPECTED exit ${code} (expected ${step.expect}) for: elicit ${step.args.join(" ")}`);
  }
};

// A plan (or its steps) may be awaited: the machine sign-ins first read the issuer to pin.
const plan = await planFor(scenario);
for (const pending of typeof plan === "function" ? await plan() : plan) {
  const step = await pending;
  run(typeof step === "function" ? step(outputs) : step);
}
process.exit(failed ? 1 : 0);
