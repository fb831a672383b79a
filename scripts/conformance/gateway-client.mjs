#!/usr/bin/env node
// A client scenario of the official MCP conformance suite with `elicit gateway` between `elicit` and the
// scenario's server. The suite runs this as it runs scripts/conformance-client.mjs (the scenario server's
// URL last, the scenario in MCP_CONFORMANCE_SCENARIO, the revision in MCP_CONFORMANCE_PROTOCOL_VERSION):
// it starts `elicit gateway --http 127.0.0.1:0 --url <scenario server> --ui host --no-browser` (at that
// revision, when the scenario names one), waits for the address it serves at, and runs
// scripts/conformance-client.mjs, the usual `elicit` commands, against the gateway. The scenario's
// server sees the gateway as its client; `elicit` answers the questions the gateway hands it (host).
// Plain JavaScript, like the dispatcher.
import { spawn, spawnSync } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { discoverOAuthServerInfo } from "@modelcontextprotocol/client";

const here = dirname(fileURLToPath(import.meta.url));
const ELICIT = join(here, "..", "..", "dist", "cli", "main.js");
const DISPATCHER = join(here, "..", "conformance-client.mjs");
const url = process.argv.at(-1);
if (!url || !/^https?:\/\//.test(url)) {
  console.error("usage: gateway-client.mjs SERVER_URL (the conformance suite runs it so)");
  process.exit(2);
}
const protocol = process.env.MCP_CONFORMANCE_PROTOCOL_VERSION ?? "auto";
const args = [ELICIT, "gateway", "--http", "127.0.0.1:0", "--url", url, "--ui", "host", "--no-browser", "--protocol", protocol];
// Sign-ins with no person are the gateway's (it is the scenario server's client): client_credentials
// with the secret, as scripts/conformance-client.mjs has elicit do it directly.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? "{}");
const env = { ...process.env };
if (process.env.MCP_CONFORMANCE_SCENARIO === "auth/client-credentials-basic") {
  // The issuer the secret is pinned to, as the person running the gateway would copy it from their
  // authorization server's settings; the scenario's is on a random port, so it is read from there.
  const info = await discoverOAuthServerInfo(url);
  const issuer = info.authorizationServerMetadata?.issuer ?? String(info.authorizationServerUrl);
  args.push("--client-credentials", "--client-id", context.client_id, "--issuer", issuer);
  env.CONFORMANCE_ISSUER = issuer;
  env.ELICIT_CLIENT_SECRET = context.client_secret;
}
console.error(`gateway-client: elicit ${args.slice(1).join(" ")}`);
const gateway = spawn(process.execPath, args, { stdio: ["ignore", "ignore", "pipe"], env });
let log = "";
const served = await new Promise((resolve) => {
  // Generous: on a loaded 2-core machine the gateway alone has taken over 30 s to start.
  const timer = setTimeout(() => resolve(undefined), 90_000);
  gateway.stderr.on("data", (d) => {
    log += d;
    process.stderr.write(d);
    const m = /served to hosts at (http:\/\/\S+) \(Streamable HTTP\)/.exec(log);
    if (m) {
      clearTimeout(timer);
      resolve(m[1]);
    }
  });
  gateway.on("exit", (code) => {
    clearTimeout(timer);
    resolve(undefined);
    console.error(`gateway-client: the gateway exited (${code})`);
  });
});
if (!served) {
  console.error("conformance-client: UNEXPECTED the gateway did not start serving");
  gateway.kill("SIGKILL");
  process.exit(1);
}
const r = spawnSync(process.execPath, [DISPATCHER, served], { stdio: "inherit", env });
const stopped = new Promise((resolve) => gateway.once("exit", resolve));
gateway.kill("SIGTERM");
const killer = setTimeout(() => gateway.kill("SIGKILL"), 5_000);
await stopped;
clearTimeout(killer);
process.exit(r.status ?? 1);
