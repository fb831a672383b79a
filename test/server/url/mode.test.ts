// ctx.elicitUrl end to end over Streamable HTTP (serveHttp with the kit's pages mounted), with the
// library's client (attachElicitation) and a scripted person: each revision's path, decline, cancel,
// timeout, a retry before the flow ended, and clients without URL mode. The tests stand in for the
// page: they end flows with s.kit.flows.finish, as an author's own page does.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest, UrlWait, UrlWaitOutcome } from "../../../src/client/ui.js";
import { UrlElicitationEndedError } from "../../../src/client/url-flow.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { serveHttp } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import type { UrlElicitOptions } from "../../../src/server/inputs/elicit-url.js";
import type { FlowOutcome } from "../../../src/server/url/flows.js";
import { createUrlKit, type UrlKitOptions } from "../../../src/server/url/url-kit.js";
import { watchGetStream } from "../../helpers/get-stream.js";
import { callWith, manualClient } from "../../helpers/manual-client.js";
import { assertWireValid, tap, type WireMessage } from "../../helpers/mcp.js";

const AUTHOR_PAGE = "https://pay.example.com/checkout";

/** A person who answers URL consents from a script; `page` plays the browser page after each consent. */
class ScriptedPerson implements ElicitationUI {
  urls: UrlRequest[] = [];
  waits: UrlWait[] = [];
  constructor(
    private answers: UrlAnswer[],
    private page: (flowId: string, n: number) => void = () => {},
    private wait?: UrlWaitOutcome,
  ) {}
  async form(): Promise<never> {
    throw new Error("no form expected");
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    const answer = this.answers.shift() ?? "cancel";
    if (answer === "accept") this.page(flowIdOf(request.analysis.url), this.urls.length);
    return answer;
  }
  notice(): void {}
}

class WaitingPerson extends ScriptedPerson {
  async waitForUrl(wait: UrlWait): Promise<UrlWaitOutcome> {
    this.waits.push(wait);
    if (this.waitOutcome) return this.waitOutcome;
    await wait.completed;
    return "completed";
  }
  constructor(
    answers: UrlAnswer[],
    page: (flowId: string, n: number) => void,
    private waitOutcome?: UrlWaitOutcome,
  ) {
    super(answers, page);
  }
}

/** The flow id is the last segment of the kit's connect URL. */
const flowIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

interface Setup {
  revision: ProtocolRevision;
  ui: ElicitationUI;
  options?: UrlElicitOptions;
  kit?: UrlKitOptions;
  modes?: ("form" | "url")[];
  /** Hold the client's GET stream back (until close), so nothing sent outside a request reaches it. */
  holdGetStream?: boolean;
}

/** serveHttp with a kit; the tool `pay` asks for the author's page and says how the flow ended. */
async function start(setup: Setup) {
  const kit = createUrlKit({ identity: "loopback", serverName: "shop", ...setup.kit });
  const elicitation = createElicitation({ urlKit: kit, progressIntervalMs: 20 });
  const factory = () => {
    const server = new McpServer({ name: "shop", version: "1.0.0" });
    elicitation.registerTool(
      server,
      "pay",
      { description: "Pay", inputSchema: z.object({ order: z.number() }) },
      async ({ order }, ctx) => {
        const { outcome, flowId } = await ctx.elicitUrl(`Pay for order ${order}`, (id) => `${AUTHOR_PAGE}?flow=${id}`, setup.options);
        return { content: [{ type: "text", text: `${outcome} ${flowId}` }] };
      },
    );
    return server;
  };
  const http = await serveHttp(factory, { urlKit: kit });
  const wire: WireMessage[] = [];
  const client = new Client({ name: "host", version: "1.0.0" }, versionOptions(setup.revision) as never);
  const handle = attachElicitation(client, { ui: setup.ui, ...(setup.modes ? { modes: setup.modes } : {}) });
  const getStream = watchGetStream({ hold: setup.holdGetStream ?? false });
  await client.connect(tap(new StreamableHTTPClientTransport(http.url, { fetch: getStream.fetch }), wire));
  // 2025-11-25 completions travel on the GET stream, which the client opens in the background: wait
  // for it, or a page that finishes quickly would end its flow before the client can hear of it.
  if (setup.revision === "2025-11-25" && !setup.holdGetStream) await getStream.opened;
  return {
    kit,
    url: http.url,
    wire,
    handle,
    pay: (order = 42, options: { signal?: AbortSignal; onprogress?: () => void } = {}) =>
      handle.callTool({ name: "pay", arguments: { order } }, options) as Promise<CallToolResult>,
    async close() {
      await client.close();
      getStream.release();
      await http.close();
      await kit.close();
      assertWireValid(wire, setup.revision);
    },
  };
}

function versionOptions(revision: ProtocolRevision) {
  if (revision === "2026-07-28") return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  return { supportedProtocolVersions: revision === "2025-06-18" ? ["2025-06-18"] : ["2025-11-25", "2025-06-18"] };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
const incoming = (wire: WireMessage[], method: string) => wire.filter((w) => w.dir === "in" && w.message.method === method);
const urlRequests = (wire: WireMessage[]) =>
  wire.flatMap(({ dir, message }) => {
    if (dir !== "in") return [];
    if (message.method === "elicitation/create") return [message.params];
    const requests = message.result?.resultType === "input_required" ? Object.values(message.result.inputRequests ?? {}) : [];
    return (requests as { method: string; params: Record<string, unknown> }[])
      .filter((r) => r.method === "elicitation/create")
      .map((r) => r.params);
  });

describe("2025-11-25, the request path", () => {
  test("consent, the tool waits with progress, the page completes: the tool resumes, and the client hears the completion for that id", async () => {
    let flowId = "";
    const person = new ScriptedPerson(["accept"], (id) => (flowId = id));
    const s = await start({ revision: "2025-11-25", ui: person });
    try {
      // The page finishes once the tool is seen waiting (its progress keep-alive), as a person would later.
      // Progress also comes while the consent is asked: only once the person accepted is there a flow to finish.
      let finished: Promise<boolean> | undefined;
      const result = await s.pay(42, { onprogress: () => void (flowId && (finished ??= s.kit.flows.finish(flowId, "completed"))) });
      assert.equal(await finished, true);
      assert.equal(textOf(result), `completed ${flowId}`);
      const [request] = urlRequests(s.wire);
      assert.deepEqual(request, { mode: "url", message: "Pay for order 42", url: s.kit.connectUrl(flowId), elicitationId: flowId });
      // The URL is the kit's opaque connect page: nothing of the order, the author's page or the person.
      assert.match(request!.url as string, /^http:\/\/127\.0\.0\.1:\d+\/elicit\/connect\/[A-Za-z0-9_-]{43}$/);
      const flow = await s.kit.flows.get(flowId);
      assert.equal(flow?.target, `${AUTHOR_PAGE}?flow=${flowId}`);
      assert.deepEqual([flow?.kind, flow?.server, flow?.client, flow?.message], ["url", "shop", "host", "Pay for order 42"]);
      const completions = incoming(s.wire, "notifications/elicitation/complete");
      assert.deepEqual(
        completions.map((c) => c.message.params),
        [{ elicitationId: flowId }],
      );
      assert.ok(incoming(s.wire, "notifications/progress").length >= 1, "the wait sent progress");
      // A finished flow cannot be finished again.
      assert.equal(await s.kit.flows.finish(flowId, "completed"), false);
    } finally {
      await s.close();
    }
  });

  test("the person declines in the client, or the page ends the flow declined: the tool hears declined", async () => {
    const s = await start({ revision: "2025-11-25", ui: new ScriptedPerson(["decline"]) });
    try {
      const [outcome, flowId] = textOf(await s.pay()).split(" ");
      assert.equal(outcome, "declined");
      assert.equal(await s.kit.flows.outcome(flowId!), "declined");
      assert.equal(await s.kit.flows.finish(flowId!, "completed"), false, "a declined flow cannot be completed later");
    } finally {
      await s.close();
    }
    const t = await start({
      revision: "2025-11-25",
      ui: new ScriptedPerson(["accept"], (id) => setImmediate(() => void t.kit.flows.finish(id, "declined"))),
    });
    try {
      assert.match(textOf(await t.pay()), /^declined /);
    } finally {
      await t.close();
    }
  });

  test("the client cancels the call while the person is in the browser: the flow ends cancelled", async () => {
    let flowId = "";
    const controller = new AbortController();
    const s = await start({ revision: "2025-11-25", ui: new ScriptedPerson(["accept"], (id) => (flowId = id)) });
    try {
      // Progress comes while the consent is asked too: the host stops the call once the person is in the browser.
      await assert.rejects(
        s.pay(42, { signal: controller.signal, onprogress: () => flowId && controller.abort(new Error("stopped by the host")) }),
        /stopped by the host/,
      );
      assert.equal(await s.kit.flows.waitFor(flowId), "cancelled");
      assert.equal(await s.kit.flows.finish(flowId, "completed"), false);
    } finally {
      await s.close();
    }
  });

  test("nobody finishes the page before the flow expires: the tool hears timed out", async () => {
    let flowId = "";
    const s = await start({
      revision: "2025-11-25",
      ui: new ScriptedPerson(["accept"], (id) => (flowId = id)),
      options: { timeoutMs: 200 },
    });
    try {
      assert.equal(textOf(await s.pay()), `timed out ${flowId}`);
      assert.equal(await s.kit.flows.outcome(flowId), "expired");
      assert.equal(await s.kit.flows.get(flowId), undefined);
    } finally {
      await s.close();
    }
  });
});

describe("2025-11-25, the -32042 path", () => {
  test("the call fails with the URL, the page completes, the notification comes, and the client's retry finds the flow", async () => {
    const person = new WaitingPerson(["accept"], (id) => setImmediate(() => void s.kit.flows.finish(id, "completed")));
    const s = await start({ revision: "2025-11-25", ui: person, options: { via: "error" } });
    try {
      const [outcome, flowId] = textOf(await s.pay()).split(" ");
      assert.equal(outcome, "completed");
      const errors = s.wire.filter((w) => w.dir === "in" && w.message.error).map((w) => w.message.error);
      assert.equal(errors.length, 1);
      assert.equal(errors[0].code, -32042);
      assert.deepEqual(errors[0].data.elicitations, [
        { mode: "url", message: "Pay for order 42", url: s.kit.connectUrl(flowId!), elicitationId: flowId },
      ]);
      assert.deepEqual(
        incoming(s.wire, "notifications/elicitation/complete").map((c) => c.message.params),
        [{ elicitationId: flowId }],
      );
      const calls = s.wire.filter((w) => w.dir === "out" && w.message.method === "tools/call");
      assert.equal(calls.length, 2, "the call, then its retry");
      // Once the call returned, the same call again starts a new flow.
      await assert.rejects(s.handle.callTool({ name: "pay", arguments: { order: 42 } }), UrlElicitationEndedError);
      const second = (
        s.wire.filter((w) => w.dir === "in" && w.message.error).at(-1)!.message.error.data.elicitations as { elicitationId: string }[]
      )[0]!;
      assert.notEqual(second.elicitationId, flowId);
    } finally {
      await s.close();
    }
  });

  test("a retry before the page finished fails again with the same URL; after the page finishes, calling again completes", async () => {
    const person = new WaitingPerson(["accept"], () => {}, "retry");
    const s = await start({ revision: "2025-11-25", ui: person, options: { via: "error" } });
    try {
      const ended = await s.pay().then(
        () => assert.fail("the call should not succeed before the page finished"),
        (error: unknown) => error,
      );
      assert.ok(ended instanceof UrlElicitationEndedError && ended.reason === "repeated", String(ended));
      const errors = s.wire.filter((w) => w.dir === "in" && w.message.error).map((w) => w.message.error.data.elicitations[0]);
      assert.equal(errors.length, 2);
      assert.deepEqual(errors[1], errors[0], "the same URL and id, asked again");
      assert.equal(await s.kit.flows.finish(errors[0].elicitationId, "completed"), true);
      // A plain call (the person tries again later) finds the completed flow.
      assert.equal(textOf(await s.pay()), `completed ${errors[0].elicitationId}`);
      // Another order is another call: a new flow.
      await assert.rejects(s.pay(43), UrlElicitationEndedError);
    } finally {
      await s.close();
    }
  });
});

describe("2025-11-25, a completion the client cannot hear", () => {
  test("sent before the client's GET stream opened, the notice is lost: a client without waitForUrl retries once the call's timeout passed, and the retry finds the flow", async () => {
    const person = new ScriptedPerson(["accept"], (id) => setImmediate(() => void s.kit.flows.finish(id, "completed")));
    const s = await start({ revision: "2025-11-25", ui: person, options: { via: "error" }, holdGetStream: true });
    try {
      const result = (await s.handle.callTool({ name: "pay", arguments: { order: 42 } }, { timeout: 5000 })) as CallToolResult;
      const [outcome, flowId] = textOf(result).split(" ");
      assert.equal(outcome, "completed");
      assert.equal(await s.kit.flows.outcome(flowId!), "completed");
      assert.equal(incoming(s.wire, "notifications/elicitation/complete").length, 0, "no stream could carry the notice");
      const calls = s.wire.filter((w) => w.dir === "out" && w.message.method === "tools/call");
      assert.equal(calls.length, 2, "the call, then its retry");
    } finally {
      await s.close();
    }
  });
});

describe("2026-07-28", () => {
  test("the URL rides in input_required without an elicitationId; the retry waits for the page and completes", async () => {
    const person = new ScriptedPerson(["accept"], (id) => setImmediate(() => void s.kit.flows.finish(id, "completed")));
    const s = await start({ revision: "2026-07-28", ui: person, options: { retryWaitMs: 60_000 } });
    try {
      const [outcome, flowId] = textOf(await s.pay()).split(" ");
      assert.equal(outcome, "completed");
      assert.deepEqual(urlRequests(s.wire), [{ mode: "url", message: "Pay for order 42", url: s.kit.connectUrl(flowId!) }]);
      assert.equal(incoming(s.wire, "notifications/elicitation/complete").length, 0);
      // The flow id travels only sealed: the requestState does not show it.
      const states = s.wire
        .filter((w) => w.dir === "in" && w.message.result?.requestState)
        .map((w) => w.message.result.requestState as string);
      assert.equal(states.length, 1);
      assert.ok(!states[0]!.includes(flowId!));
    } finally {
      await s.close();
    }
  });

  test("a retry before the page finished waits its bounded time, then asks again with the same URL", async () => {
    // The first consent opens the page but nobody finishes it; by the second ask the person has. That ask
    // is not put to the person again (they already said yes): the client tells them the server still waits.
    let opened = "";
    const person = new ScriptedPerson(["accept"], (id) => (opened = id));
    person.notice = () => void s.kit.flows.finish(opened, "completed");
    const s = await start({ revision: "2026-07-28", ui: person, options: { retryWaitMs: 50 } });
    try {
      const [outcome, flowId] = textOf(await s.pay()).split(" ");
      assert.equal(outcome, "completed");
      assert.equal(person.urls.length, 1, "the person was asked once");
      const asked = urlRequests(s.wire);
      assert.equal(asked.length, 2);
      assert.deepEqual(asked[1], asked[0]);
      assert.equal(asked[0]!.url, s.kit.connectUrl(flowId!));
    } finally {
      await s.close();
    }
  });

  test("nobody finishes the page before the flow expires: the retry's wait ends with timed out", async () => {
    const s = await start({ revision: "2026-07-28", ui: new ScriptedPerson(["accept"]), options: { timeoutMs: 200, retryWaitMs: 60_000 } });
    try {
      const [, outcome, flowId] = /^(.+) (\S+)$/.exec(textOf(await s.pay()))!;
      assert.equal(outcome, "timed out");
      assert.equal(await s.kit.flows.outcome(flowId!), "expired");
    } finally {
      await s.close();
    }
  });

  test("a client that drives the rounds by hand: a retry before the page asks again, the same URL; after it, completed; a cancel ends the flow", async () => {
    const s = await start({ revision: "2026-07-28", ui: new ScriptedPerson([]), options: { retryWaitMs: 50 } });
    const client = manualClient({ elicitation: { url: {} } });
    const call = callWith(client);
    try {
      await client.connect(new StreamableHTTPClientTransport(s.url));
      const pay = { name: "pay", arguments: { order: 42 } };
      const first = await call(pay);
      assert.equal(first.resultType, "input_required");
      assert.deepEqual(Object.keys(first.inputRequests), ["url-1"]);
      const url = first.inputRequests["url-1"].params.url as string;
      // Opened, not finished yet: after its bounded wait the server asks again, with the same URL.
      const second = await call({ ...pay, inputResponses: { "url-1": { action: "accept" } }, requestState: first.requestState });
      assert.deepEqual(Object.keys(second.inputRequests), ["url-1-2"]);
      assert.equal(second.inputRequests["url-1-2"].params.url, url);
      assert.equal(await s.kit.flows.finish(flowIdOf(url), "completed"), true);
      const third = await call({ ...pay, inputResponses: { "url-1-2": { action: "accept" } }, requestState: second.requestState });
      assert.equal(textOf(third as CallToolResult), `completed ${flowIdOf(url)}`);

      // Another call of the tool: a new flow, which the client's cancel ends.
      const again = await call({ ...pay, arguments: { order: 43 } });
      const other = again.inputRequests["url-1"].params.url as string;
      assert.notEqual(other, url);
      const cancelled = await call({
        ...pay,
        arguments: { order: 43 },
        inputResponses: { "url-1": { action: "cancel" } },
        requestState: again.requestState,
      });
      assert.equal(textOf(cancelled as CallToolResult), `cancelled ${flowIdOf(other)}`);
      assert.equal(await s.kit.flows.outcome(flowIdOf(other)), "cancelled");
    } finally {
      await client.close();
      await s.close();
    }
  });

  for (const answer of ["cancel", "decline"] as const) {
    test(`the client answers ${answer}: the tool hears it and the flow ends`, async () => {
      const s = await start({ revision: "2026-07-28", ui: new ScriptedPerson([answer]) });
      try {
        const [outcome, flowId] = textOf(await s.pay()).split(" ");
        const expected: FlowOutcome = answer === "cancel" ? "cancelled" : "declined";
        assert.equal(outcome, expected);
        assert.equal(await s.kit.flows.outcome(flowId!), expected);
      } finally {
        await s.close();
      }
    });
  }
});

describe("clients without URL mode", () => {
  for (const [revision, modes] of [
    ["2025-06-18", undefined],
    ["2025-11-25", ["form"]],
    ["2026-07-28", ["form"]],
  ] as const) {
    test(`${revision}${modes ? ", form mode only" : ""}: a tool error that names what is needed, and no flow`, async () => {
      const person = new ScriptedPerson([]);
      const s = await start({ revision, ui: person, ...(modes ? { modes: [...modes] } : {}) });
      try {
        const result = await s.pay();
        assert.equal(result.isError, true);
        assert.equal(
          textOf(result),
          'This tool needs a client that supports URL-mode elicitation (2025-11-25 or later, capability elicitation.url) for "Pay for order 42".',
        );
        assert.deepEqual(result.structuredContent, {
          error: "input_unavailable",
          capability: "elicitation.url",
          request: "Pay for order 42",
        });
        assert.equal(person.urls.length, 0);
      } finally {
        await s.close();
      }
    });
  }

  test("2025-06-18 with fallback link: the result carries the connect link; after the page, calling again completes", async () => {
    const s = await start({ revision: "2025-06-18", ui: new ScriptedPerson([]), kit: { fallback: "link" } });
    try {
      const first = await s.pay();
      assert.equal(first.isError, true);
      const link = (first.structuredContent as { url: string }).url;
      assert.ok(textOf(first).includes(link), "the link is in the text the model and person read");
      const flowId = flowIdOf(link);
      assert.equal(link, s.kit.connectUrl(flowId));
      // Called again before the page finished: the same link.
      assert.equal(((await s.pay()).structuredContent as { url: string }).url, link);
      assert.equal(await s.kit.flows.finish(flowId, "completed"), true);
      assert.equal(textOf(await s.pay()), `completed ${flowId}`);
    } finally {
      await s.close();
    }
  });
});

describe("the pages' address", () => {
  test("http is refused off loopback, and so are credentials, queries and fragments; a missing slash is added", () => {
    assert.throws(() => createUrlKit({ identity: "loopback", baseUrl: "http://mcp.example.com/elicit/" }), /uses http off loopback/);
    assert.throws(() => createUrlKit({ identity: "loopback", baseUrl: "ftp://127.0.0.1/" }), /must be an https URL/);
    assert.throws(
      () => createUrlKit({ identity: "loopback", baseUrl: "https://u:p@mcp.example.com/" }),
      /credentials, a query or a fragment/,
    );
    assert.throws(() => createUrlKit({ identity: "loopback", baseUrl: "not a url" }), /is not a URL/);
    const kit = createUrlKit({ identity: "loopback", baseUrl: "https://mcp.example.com/pages" });
    assert.equal(kit.connectUrl("A".repeat(43)), `https://mcp.example.com/pages/connect/${"A".repeat(43)}`);
    // serveHttp keeps a baseUrl that was given.
    kit.mount("http://127.0.0.1:1/elicit/");
    assert.equal(kit.baseUrl?.href, "https://mcp.example.com/pages/");
    assert.throws(() => createUrlKit({ identity: "loopback" }).connectUrl("x"), /pass baseUrl, or serve the kit with serveHttp/);
  });

  test("serveHttp refuses pages that would cover the MCP endpoint", async () => {
    const factory = () => new McpServer({ name: "x", version: "1.0.0" });
    const root = createUrlKit({ identity: "loopback", baseUrl: "https://mcp.example.com/" });
    await assert.rejects(serveHttp(factory, { urlKit: root }), /the URL kit's pages \(\/\) would cover the MCP endpoint \/mcp/);
    const http = await serveHttp(factory, { urlKit: createUrlKit({ identity: "loopback" }), path: "/elicit/mcp" }).then(
      (h) => h,
      (e: Error) => e,
    );
    assert.ok(http instanceof Error && /would cover the MCP endpoint \/elicit\/mcp/.test(http.message), String(http));
  });
});
