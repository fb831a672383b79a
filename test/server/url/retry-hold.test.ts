// 2026-07-28's bounded hold of a URL flow's retry, after another person was refused on the flow's page:
// serveHttp with auth and the URL kit (oidc identity, a real local OpenID provider for alice and bob),
// the library's client as alice, and the pages in headless Chromium. The owner's retry must come back
// input_required with the same URL within retryWaitMs, whatever happened on the page and in the heap.
//
// The hold was bounded by AbortSignal.any([request signal, AbortSignal.timeout(ms)]). Node's composite
// signal holds its sources only weakly, and nothing else holds a timeout signal, so a full garbage
// collection during the hold collects the timer's signal and the hold never times out (nodejs/node#57736,
// seen here on Node 20.20): the retry stays open until the flow ends or expires, or the client gives up
// (the SDK's default request timeout is 60 s: "Request timed out"). Nothing about the refusal itself
// matters; the page traffic only makes a collection during a 25 s hold likely in a long-running server.
// The test forces one during the hold, so that it does not depend on the state of the heap.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import type { Browser } from "playwright-core";
import * as z from "zod";
import { attachElicitation } from "../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest } from "../../../src/client/ui.js";
import { startOpenIdProvider, type OpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import type { FlowOutcome } from "../../../src/server/url/flows.js";
import { createUrlKit, type UrlKit } from "../../../src/server/url/url-kit.js";
import { tap, type WireMessage } from "../../helpers/mcp.js";
import { signIn } from "../../helpers/oidc.js";
import { launchChromium } from "../../helpers/chromium.js";
import { needs } from "../../helpers/needs.js";
import { ensurePageBundles, signInOnProvider } from "../../helpers/url-pages.js";

// A full collection on demand, in this process (the server's), without starting node with --expose-gc.
setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

const RETRY_WAIT_MS = 1000;
/** What the client allows each request beyond the server's hold (its request timeout is the sum). */
const MARGIN_MS = 5000;

/** One hold of a retry, as the kit's flows saw it. */
interface Hold {
  flowId: string;
  started: number;
  /** How the wait ended: an outcome, or the name of the abort's reason. */
  ended: Promise<{ at: number; how: FlowOutcome | string }>;
}

describe("2026-07-28: the retry's hold after another person was refused on the page", { skip: needs("chromium") }, () => {
  let op: OpenIdProvider;
  let kit: UrlKit;
  let http: HttpServerHandle;
  let browser: Browser;
  let aliceToken: string;
  const holds: Hold[] = [];
  /** Run when a hold starts (the test's hook into the wait, e.g. a collection). */
  let onHold: (hold: Hold) => void = () => {};

  before(async () => {
    await ensurePageBundles();
    op = await startOpenIdProvider();
    kit = createUrlKit({ oidc: { issuer: op.issuer }, serverName: "shop" });
    // Every wait of a retry is observed: when it starts and how it ends.
    const waitFor = kit.flows.waitFor.bind(kit.flows);
    kit.flows.waitFor = (id, signal, options) => {
      const started = Date.now();
      const wait = waitFor(id, signal, options);
      const ended = wait.then(
        (how) => ({ at: Date.now(), how }),
        (error: unknown) => ({ at: Date.now(), how: (error as Error | undefined)?.name ?? String(error) }),
      );
      const hold = { flowId: id, started, ended };
      holds.push(hold);
      onHold(hold);
      return wait;
    };
    const elicitation = createElicitation({ urlKit: kit });
    const factory = () => {
      const server = new McpServer({ name: "shop", version: "1.0.0" });
      elicitation.registerTool(
        server,
        "pay",
        { description: "Pay", inputSchema: z.object({ retryWaitMs: z.number() }) },
        async ({ retryWaitMs }, ctx) => {
          const { outcome, flowId } = await ctx.elicitUrl("Pay for order 42", (id) => `https://pay.example.com/checkout?flow=${id}`, {
            retryWaitMs,
          });
          return { content: [{ type: "text", text: `${outcome} ${flowId}` }] };
        },
      );
      return server;
    };
    http = await serveHttp(factory, { auth: { issuer: op.issuer }, urlKit: kit });
    aliceToken = (await signIn({ issuer: op.issuer, user: "alice", resource: http.url.href, scopes: ["mcp:tools"] })).accessToken;
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await http?.close();
    await kit?.close();
    await op?.close();
  });

  /** Alice's client on 2026-07-28 (the library's, as hosts use it), with `ui` as the person. */
  async function aliceClient(ui: ElicitationUI) {
    const wire: WireMessage[] = [];
    const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
    const handle = attachElicitation(client, { ui });
    const transport = new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: `Bearer ${aliceToken}` } } });
    await client.connect(tap(transport, wire));
    return { client, handle, wire };
  }

  /** `user` opens `link` in a fresh browser and signs in; resolves once the page shows `heading`. */
  async function visit(link: string, user: string, heading: string): Promise<void> {
    const context = await browser.newContext();
    try {
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      await page.goto(link);
      await signInOnProvider(page, op.issuer, user);
      await page.getByRole("heading", { name: heading }).waitFor();
    } finally {
      await context.close();
    }
  }

  /** The URL requests alice's client received, in order (they ride in input_required). */
  const urlsAsked = (wire: WireMessage[]) =>
    wire.flatMap(({ dir, message }) =>
      dir === "in" && message.result?.resultType === "input_required"
        ? Object.values(message.result.inputRequests as Record<string, { params: { url: string } }>).map((r) => r.params.url)
        : [],
    );

  // With AbortSignal.timeout inside AbortSignal.any (before replay-url.ts had its own timer) this failed,
  // as the finding did, with "Request timed out".
  test("bob is refused; alice's retry comes back input_required with the same URL within retryWaitMs, a full collection during the hold notwithstanding", async () => {
    let accepted = 0;
    let askedAgain = 0;
    let link = "";
    const ui: ElicitationUI = {
      form: () => Promise.reject(new Error("no form expected")),
      async url(request: UrlRequest): Promise<UrlAnswer> {
        link = request.analysis.url;
        const flowId = new URL(link).pathname.split("/").pop()!;
        // Another person opens the link and signs in: refused, and the flow is left as it was.
        await visit(link, "bob", "This link was made for someone else");
        assert.equal(await kit.flows.outcome(flowId), undefined, "the flow is still pending after bob's refusal");
        // Nothing bound the flow to bob's browser: alice, in hers, is admitted to it.
        await visit(link, "alice", "Continue to pay.example.com");
        accepted = Date.now();
        return "accept";
      },
      // The retry came back with the same URL: the person already opened it, so the client asks nobody.
      urlAskedAgain() {
        askedAgain = Date.now();
        return "cancel";
      },
      notice() {},
    };
    // The collection comes after the wait took hold of its signal, as the page traffic's would.
    onHold = () => setImmediate(collectGarbage);
    const alice = await aliceClient(ui);
    try {
      // Each request of the call may take the hold plus the margin: a hold without bound fails the call
      // with the SDK's "Request timed out" (here after 6 s, not 60 s), the symptom first observed.
      const result = (await alice.handle.callTool(
        { name: "pay", arguments: { retryWaitMs: RETRY_WAIT_MS } },
        { timeout: RETRY_WAIT_MS + MARGIN_MS },
      )) as CallToolResult;
      const [outcome, flowId] = (result.content[0] as { text: string }).text.split(" ");
      assert.equal(outcome, "cancelled", "the second ask was answered cancel, which ends the flow");
      assert.equal(holds.length, 1, "one retry was held");
      const hold = holds[0]!;
      assert.equal(hold.flowId, flowId);
      const ended = await hold.ended;
      assert.equal(ended.how, "TimeoutError", "the hold ended at its bound, not by an end of the flow or an abort");
      const held = ended.at - hold.started;
      assert.ok(held >= RETRY_WAIT_MS - 50 && held < RETRY_WAIT_MS + MARGIN_MS, `held ${held} ms, retryWaitMs is ${RETRY_WAIT_MS}`);
      assert.ok(askedAgain - accepted < RETRY_WAIT_MS + MARGIN_MS, `asked again ${askedAgain - accepted} ms after the accept`);
      const asked = urlsAsked(alice.wire);
      assert.equal(asked.length, 2, "asked, then asked again after the hold");
      assert.equal(asked[1], asked[0], "the same URL");
      assert.equal(asked[0], kit.connectUrl(flowId!));
      assert.equal(asked[0], link);
    } finally {
      onHold = () => {};
      holds.length = 0;
      await alice.client.close();
    }
  });

  test("a client that gives up before the hold ends ends the server's wait with it", async () => {
    const ui: ElicitationUI = {
      form: () => Promise.reject(new Error("no form expected")),
      url: async () => "accept",
      urlAskedAgain: () => "cancel",
      notice() {},
    };
    const alice = await aliceClient(ui);
    try {
      // The server would hold for a minute; the client allows each request one second.
      const call = alice.handle.callTool({ name: "pay", arguments: { retryWaitMs: 60_000 } }, { timeout: 1000 });
      await assert.rejects(call, /Request timed out/);
      const gaveUp = Date.now();
      assert.equal(holds.length, 1);
      const ended = await holds[0]!.ended;
      assert.notEqual(ended.how, "TimeoutError", "the wait did not run to its own bound");
      assert.ok(ended.at - gaveUp < 2000, `the server's wait ended ${ended.at - gaveUp} ms after the client gave up`);
      assert.equal(await kit.flows.outcome(holds[0]!.flowId), undefined, "the flow itself stays pending for a later retry");
    } finally {
      holds.length = 0;
      await alice.client.close();
    }
  });
});
