// `elicit serve travel --http --auth` as a person runs it: a child process that starts the local
// OpenID provider and the travel server behind it, and says where to sign in and as whom.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { once } from "node:events";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../../src/client/index.js";
import { scriptedUI } from "../../../src/ui/scripted.js";
import { BIN, runCli } from "../../helpers/cli.js";
import { clientFor } from "../../helpers/mcp.js";
import { signIn } from "../../helpers/oidc.js";
import { killOnExit } from "../../helpers/cleanup.js";

interface Served {
  child: ChildProcess;
  issuer: string;
  url: string;
  stderr: () => string;
}

/** Starts the command and resolves once it printed the provider and the MCP URL. */
function serveWithAuth(): Promise<Served> {
  return new Promise((resolve, reject) => {
    const child = killOnExit(
      spawn(process.execPath, [BIN, "serve", "travel", "--http", "--auth"], { stdio: ["ignore", "ignore", "pipe"] }),
    );
    let stderr = "";
    child.stderr!.on("data", (d) => {
      stderr += d;
      const issuer = /OpenID provider .* at (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr)?.[1];
      const url = /listening on (http:\/\/\S+)/.exec(stderr)?.[1];
      if (issuer && url) resolve({ child, issuer, url, stderr: () => stderr });
    });
    child.on("exit", (code) => reject(new Error(`serve exited ${code}: ${stderr}`)));
  });
}

describe("elicit serve travel --http --auth", () => {
  let served: Served;
  const tokens: string[] = [];
  before(async () => (served = await serveWithAuth()));
  after(async () => {
    if (served.child.exitCode === null) {
      served.child.kill("SIGTERM");
      await once(served.child, "exit");
    }
  });

  test("says where to sign in, as whom, and the protected URL", () => {
    const text = served.stderr();
    assert.match(text, /sign in as demo \/ demo \(also alice \/ alice, bob \/ bob\)/);
    assert.match(text, /listening on http:\/\/127\.0\.0\.1:\d+\/mcp .*OAuth scope mcp:tools/);
    assert.match(text, /^ {2}connect with: npx elicit connect --url http:\/\/127\.0\.0\.1:\d+\/mcp$/m);
  });

  test("without a token: 401 pointing at the metadata, which names the provider", async () => {
    const response = await fetch(served.url, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list", params: {} }),
    });
    assert.equal(response.status, 401);
    const metadataUrl = /resource_metadata="([^"]+)"/.exec(response.headers.get("www-authenticate") ?? "")?.[1];
    assert.ok(metadataUrl);
    const metadata = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    assert.deepEqual(metadata.authorization_servers, [served.issuer]);
    assert.equal(metadata.resource, served.url);
  });

  test("a token from its provider (demo / demo) reaches the travel tools", async () => {
    const { accessToken } = await signIn({ issuer: served.issuer, user: "demo", resource: served.url, scopes: ["mcp:tools"] });
    tokens.push(accessToken);
    const client = clientFor("2025-11-25");
    await client.connect(
      new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }),
    );
    try {
      const { tools } = await client.listTools();
      assert.ok(tools.some((t) => t.name === "book_trip"));
      const result = await client.callTool({
        name: "search_flights",
        arguments: { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" },
      });
      assert.notEqual(result.isError, true);
    } finally {
      await client.close();
    }
  });

  test("a booking belongs to who made it: alice's reference shows bob nothing", async () => {
    const connectAs = async (user: string) => {
      const { accessToken } = await signIn({ issuer: served.issuer, user, resource: served.url, scopes: ["mcp:tools"] });
      tokens.push(accessToken);
      const client = new Client({ name: user, version: "1.0.0" });
      const ui = scriptedUI(
        [
          { match: "Barcelona", action: "accept", content: { confirmBooking: true } },
          {
            match: "contact|traveler",
            action: "accept",
            content: { fullName: "Alice Liddell", email: "alice@example.com", phone: "+44 20 7946 0958" },
          },
        ],
        { log: () => {} },
      );
      const { callTool } = attachElicitation(client, { ui });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { authorization: `Bearer ${accessToken}` } } }),
      );
      return { client, callTool };
    };
    const alice = await connectAs("alice");
    const bob = await connectAs("bob");
    try {
      const booked = await alice.callTool({
        name: "book_trip",
        arguments: { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" },
      });
      const reference = (booked.structuredContent as { reference: string }).reference;
      assert.match(reference, /^ELC-/);
      const text = (r: Awaited<ReturnType<typeof alice.callTool>>) => (r.content as Array<{ text: string }>)[0]!.text;
      assert.equal(
        text(await bob.callTool({ name: "save_itinerary", arguments: { bookingReference: reference } })),
        `No booking ${reference} was found; book_trip returns the reference of each booking it makes.`,
      );
      // alice's own: found (not written without a root, so it comes back inline).
      assert.match(
        text(await alice.callTool({ name: "save_itinerary", arguments: { bookingReference: reference } })),
        /^The itinerary was not saved: .*Alice Liddell/s,
      );
    } finally {
      await alice.client.close();
      await bob.client.close();
    }
  });

  test("stops on SIGTERM with exit 0, and never printed a token", async () => {
    served.child.kill("SIGTERM");
    const [code] = await once(served.child, "exit");
    assert.equal(code, 0);
    for (const t of tokens) assert.ok(!served.stderr().includes(t));
  });

  test("--auth without --http is a usage error", async () => {
    const r = await runCli(["serve", "travel", "--auth"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--auth protects the HTTP endpoint; add --http/);
  });
});
