// ctx.connect and ctx.collect behind real sign-ins: serveHttp with auth (a real local OpenID provider,
// real tokens for alice and bob) and the URL kit. The flows record who was asked; a retry finds only the
// caller's own flow; collected values stay on the server. The tests stand in for the kit's pages: they
// put what a page would store in the vault and end the flow.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest, UrlWait, UrlWaitOutcome } from "../../../src/client/ui.js";
import { UrlElicitationEndedError } from "../../../src/client/url-flow.js";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { form, text } from "../../../src/schema/builders.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import { createUrlKit, type UrlKit } from "../../../src/server/url/url-kit.js";
import { signIn } from "../../helpers/oidc.js";
import { watchGetStream } from "../../helpers/get-stream.js";
import { tap, type WireMessage } from "../../helpers/mcp.js";

const CARD = "4242424242424242";

/** Consents to every URL and plays the page: `page` runs after each consent (or the -32042 wait). */
class PagePerson implements ElicitationUI {
  urls: UrlRequest[] = [];
  constructor(
    private page: (flowId: string) => void,
    private waitOutcome: UrlWaitOutcome = "completed",
  ) {}
  async form(): Promise<never> {
    throw new Error("no form expected");
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    setImmediate(() => this.page(new URL(request.analysis.url).pathname.split("/").pop()!));
    return "accept";
  }
  async waitForUrl(wait: UrlWait): Promise<UrlWaitOutcome> {
    if (this.waitOutcome !== "completed") return this.waitOutcome;
    await wait.completed;
    return "completed";
  }
  notice(): void {}
}

const payment = form({ cardNumber: text({ title: "Card number" }), name: text({ title: "Name on card" }) });

describe("ctx.connect and ctx.collect with signed-in callers", () => {
  let op: OpenIdProvider;
  let kit: UrlKit;
  let http: HttpServerHandle;
  const tokens = new Map<string, string>();

  before(async () => {
    op = await startOpenIdProvider();
    kit = createUrlKit({
      oidc: { issuer: op.issuer },
      providers: { skymiles: { issuer: op.issuer, clientId: "skymiles-client", scopes: ["openid"], title: "SkyMiles" } },
      serverName: "travel",
    });
    const elicitation = createElicitation({ urlKit: kit });
    const factory = () => {
      const server = new McpServer({ name: "travel", version: "1.0.0" });
      elicitation.registerTool(server, "link_miles", { description: "Connect miles" }, async (_args, ctx) => {
        const { outcome } = await ctx.connect("skymiles", { via: ctx.protocol === "2025-11-25" ? "error" : "request" });
        return { content: [{ type: "text", text: outcome }] };
      });
      elicitation.registerTool(server, "link_unknown", { description: "A provider the kit lacks" }, async (_args, ctx) => {
        await ctx.connect("nowhere");
        return { content: [] };
      });
      elicitation.registerTool(
        server,
        "pay",
        { description: "Pay", inputSchema: z.object({ order: z.number() }) },
        async ({ order }, ctx) => {
          const { outcome, flowId } = await ctx.collect(`Pay for order ${order}`, payment, { name: `card-${order}` });
          if (outcome !== "completed") return { content: [{ type: "text", text: outcome }] };
          // The values are the server's: read from the vault by the caller's principal, never returned whole.
          const card = await kit.vault.get<{ cardNumber: string }>(ctx.principal!, `card-${order}`);
          return { content: [{ type: "text", text: `paid with the card ending ${card!.cardNumber.slice(-4)} (${flowId.length})` }] };
        },
      );
      return server;
    };
    http = await serveHttp(factory, { auth: { issuer: op.issuer }, urlKit: kit });
    for (const user of ["alice", "bob"])
      tokens.set(user, (await signIn({ issuer: op.issuer, user, resource: http.url.href, scopes: ["mcp:tools"] })).accessToken);
  });
  after(async () => {
    await http.close();
    await kit.close();
    await op.close();
  });

  async function clientAs(user: string, revision: ProtocolRevision, ui: ElicitationUI) {
    const wire: WireMessage[] = [];
    const client = new Client(
      { name: "host", version: "1.0.0" },
      (revision === "2026-07-28"
        ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
        : { supportedProtocolVersions: ["2025-11-25", "2025-06-18"] }) as never,
    );
    const handle = attachElicitation(client, { ui });
    const getStream = watchGetStream();
    const transport = new StreamableHTTPClientTransport(http.url, {
      requestInit: { headers: { authorization: `Bearer ${tokens.get(user)}` } },
      fetch: getStream.fetch,
    });
    await client.connect(tap(transport, wire));
    // A -32042's completion comes on the GET stream, opened in the background: a page that finishes at
    // once would otherwise end its flow before the client can hear of it.
    if (revision === "2025-11-25") await getStream.opened;
    return {
      wire,
      call: (name: string, args: Record<string, unknown> = {}) => handle.callTool({ name, arguments: args }) as Promise<CallToolResult>,
      close: () => client.close(),
    };
  }

  const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;

  test("connect records who was asked, for which provider; the page's completion reads as connected (2026-07-28)", async () => {
    const seen: string[] = [];
    const c = await clientAs("alice", "2026-07-28", new PagePerson((id) => (seen.push(id), void kit.flows.finish(id, "completed"))));
    try {
      assert.equal(textOf(await c.call("link_miles")), "connected");
      const flow = await kit.flows.get(seen[0]!);
      assert.equal(flow?.kind, "connect");
      assert.equal(flow?.provider, "skymiles");
      assert.equal(flow?.message, "Connect your SkyMiles account");
      assert.deepEqual(flow?.principal, { issuer: op.issuer, sub: "alice" });
      assert.deepEqual([flow?.server, flow?.client], ["travel", "host"]);
    } finally {
      await c.close();
    }
  });

  test("-32042: a retry finds the caller's own flow; another person calling the same tool never gets it", async () => {
    const aliceFlows: string[] = [];
    // Alice retries before her page finished: the same URL comes back, and the client stops.
    const alice = await clientAs("alice", "2025-11-25", new PagePerson((id) => aliceFlows.push(id), "retry"));
    const bobFlows: string[] = [];
    const bob = await clientAs("bob", "2025-11-25", new PagePerson((id) => (bobFlows.push(id), void kit.flows.finish(id, "completed"))));
    try {
      await assert.rejects(alice.call("link_miles"), (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "repeated");
      // Bob's call is another flow, his own, that his page completes; Alice's stays pending.
      assert.equal(textOf(await bob.call("link_miles")), "connected");
      assert.notEqual(bobFlows[0], aliceFlows[0]);
      assert.equal(await kit.flows.outcome(aliceFlows[0]!), undefined);
      assert.deepEqual((await kit.flows.get(bobFlows[0]!))?.principal, { issuer: op.issuer, sub: "bob" });
      // Alice's page completes; her next call finds it.
      await kit.flows.finish(aliceFlows[0]!, "completed");
      assert.equal(textOf(await alice.call("link_miles")), "connected");
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  test("collect: a hosted form flow with its schema and vault name; the values stay on the server (2025-11-25 request)", async () => {
    const seen: string[] = [];
    const c = await clientAs(
      "bob",
      "2025-11-25",
      new PagePerson(async (id) => {
        seen.push(id);
        const flow = await kit.flows.get(id);
        // What the form page does with a valid POST: the values into the vault, then the flow's end.
        await kit.vault.put(flow!.principal!, flow!.name!, { cardNumber: CARD, name: "Bob" }, "form");
        await kit.flows.finish(id, "completed");
      }),
    );
    try {
      const result = await c.call("pay", { order: 7 });
      assert.match(textOf(result), /^paid with the card ending 4242 \(43\)$/);
      const flow = await kit.flows.get(seen[0]!);
      assert.equal(flow?.kind, "form");
      assert.equal(flow?.name, "card-7");
      assert.deepEqual(Object.keys((flow?.form as { properties: object }).properties), ["cardNumber", "name"]);
      // Nothing the client received holds the card number.
      assert.ok(!JSON.stringify(c.wire).includes(CARD));
      assert.ok(!JSON.stringify(c.wire).includes(CARD.slice(0, 8)));
    } finally {
      await c.close();
    }
  });

  test("an unknown provider is a tool error naming the kit's providers", async () => {
    const c = await clientAs("alice", "2025-11-25", new PagePerson(() => {}));
    try {
      const result = await c.call("link_unknown");
      assert.equal(result.isError, true);
      assert.match(textOf(result), /ctx\.connect: unknown provider "nowhere"; the kit's providers are: skymiles\./);
    } finally {
      await c.close();
    }
  });
});

test("a kit that checks sign-ins needs a verified caller: without auth the tool says how to get one", async () => {
  const kit = createUrlKit();
  const elicitation = createElicitation({ urlKit: kit });
  const http = await serveHttp(
    () => {
      const server = new McpServer({ name: "open", version: "1.0.0" });
      elicitation.registerTool(server, "pay", { description: "Pay" }, async (_args, ctx) => {
        await ctx.elicitUrl("Pay", "https://pay.example.com/");
        return { content: [] };
      });
      return server;
    },
    { urlKit: kit },
  );
  const client = new Client({ name: "host", version: "1.0.0" });
  attachElicitation(client, { ui: new PagePerson(() => {}) });
  try {
    await client.connect(new StreamableHTTPClientTransport(http.url));
    const result = (await client.callTool({ name: "pay", arguments: {} })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match(
      (result.content[0] as { text: string }).text,
      /URL-mode flows need to know who calls: serve with serveHttp\(factory, \{ auth \}\)/,
    );
  } finally {
    await client.close();
    await http.close();
    await kit.close();
  }
});
