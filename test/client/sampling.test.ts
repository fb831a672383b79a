// attachSampling and attachRoots end to end: a raw-SDK server asks a real SDK Client for a model
// completion (live on 2025 eras, embedded input_required on 2026-07-28) and for its roots. Each case
// checks what the person was shown, what the model was given, and what went back on the wire.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { inputRequired, McpServer, type CallToolResult } from "@modelcontextprotocol/server";
import type { ModelProvider, SamplingParams, SamplingResult } from "../../src/client/providers/provider.js";
import { attachRoots } from "../../src/client/roots.js";
import { attachSampling, TYPED_BY_PERSON } from "../../src/client/sampling.js";
import type {
  SamplingAnswerReview,
  SamplingAnswerView,
  SamplingRequestReview,
  SamplingRequestView,
  SamplingUI,
  UIContext,
} from "../../src/client/ui.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { waitFor } from "../helpers/deferred.js";
import { clientFor, connect, type TransportKind, type WireMessage } from "../helpers/mcp.js";
import { jsonResult, resultJson, sendToClient } from "../helpers/results.js";
import { assertWire } from "../helpers/wire.js";
import { removeOnExit } from "../helpers/cleanup.js";

const REVISIONS: ProtocolRevision[] = ["2025-06-18", "2025-11-25", "2026-07-28"];

const REQUEST = {
  messages: [
    {
      role: "user",
      content: { type: "text", text: "Pick the best of these flights:\nBA-1 07:10 $420\nIB-2 \u001b[31m06:55\u001b[0m $380" },
    },
  ],
  systemPrompt: "You are a travel expert\u202E helping users find the best flights",
  maxTokens: 1500,
  modelPreferences: { hints: [{ name: "claude-3-5-sonnet" }], costPriority: 0.3, speedPriority: 0.2, intelligencePriority: 0.9 },
};

/** A provider that records what it was asked and answers with `reply` (or fails). */
class RecordingProvider implements ModelProvider {
  readonly models = ["local-large", "local-small"];
  asked: { params: SamplingParams; model: string }[] = [];
  constructor(private reply: string | Error = "IB-2: earliest and cheapest") {}
  chooseModel(): string {
    return "local-large";
  }
  async complete(params: SamplingParams, options: { model: string }): Promise<SamplingResult> {
    this.asked.push({ params, model: options.model });
    if (this.reply instanceof Error) throw this.reply;
    return { role: "assistant", content: { type: "text", text: this.reply }, model: `${options.model}-2026`, stopReason: "endTurn" };
  }
}

class ReviewUI implements SamplingUI {
  requests: SamplingRequestView[] = [];
  answers: (SamplingAnswerView | undefined)[] = [];
  notices: string[] = [];
  constructor(
    private onRequest: SamplingRequestReview,
    private onAnswer: SamplingAnswerReview = { action: "approve" },
  ) {}
  async reviewRequest(request: SamplingRequestView, _context: UIContext) {
    this.requests.push(request);
    return this.onRequest;
  }
  async reviewAnswer(answer: SamplingAnswerView | undefined) {
    this.answers.push(answer);
    return this.onAnswer;
  }
  notice(message: string) {
    this.notices.push(message);
  }
}

/** `sample` asks the client's model once and returns what came back (or the error); `roots` lists roots. */
function modelServer(seen: { listChanged: number }) {
  return () => {
    const server = new McpServer({ name: "travel-agent", version: "1.2.0" });
    server.registerTool("sample", {}, async (ctx) => {
      if (ctx.mcpReq.inputResponses === undefined && (ctx.mcpReq.envelope as Record<string, unknown> | undefined) !== undefined) {
        return inputRequired({ inputRequests: { s: inputRequired.createMessage(REQUEST as never) }, requestState: "round-1" });
      }
      if (ctx.mcpReq.inputResponses) return jsonResult({ result: ctx.mcpReq.inputResponses.s });
      return jsonResult(await sendToClient(ctx, "sampling/createMessage", REQUEST));
    });
    server.registerTool("roots", {}, async (ctx) => {
      if (ctx.mcpReq.inputResponses === undefined && (ctx.mcpReq.envelope as Record<string, unknown> | undefined) !== undefined) {
        return inputRequired({ inputRequests: { r: inputRequired.listRoots() }, requestState: "round-1" });
      }
      if (ctx.mcpReq.inputResponses) return jsonResult({ result: ctx.mcpReq.inputResponses.r });
      return jsonResult(await sendToClient(ctx, "roots/list"));
    });
    server.server.setNotificationHandler("notifications/roots/list_changed", () => void seen.listChanged++);
    return server;
  };
}

async function withSampling(
  revision: ProtocolRevision,
  setup: { ui: ReviewUI; provider?: ModelProvider; kind?: TransportKind },
  body: (call: () => Promise<any>, wire: WireMessage[]) => Promise<void>,
) {
  const client = clientFor(revision, {});
  attachSampling(client, {
    ui: setup.ui,
    ...(setup.provider ? { provider: setup.provider } : {}),
    rateLimit: { max: 3, windowMs: 60_000 },
  });
  const connection = await connect(client, modelServer({ listChanged: 0 }), revision, setup.kind ?? "memory");
  try {
    await body(async () => resultJson(await client.callTool({ name: "sample", arguments: {} })), connection.wire);
  } finally {
    await connection.close();
  }
}

for (const revision of REVISIONS) {
  const modern = revision === "2026-07-28";
  describe(`attachSampling (${revision})`, () => {
    test("the person sees the request made inert; on approval the model answers and the answer goes back", async () => {
      const ui = new ReviewUI({ action: "approve" });
      const provider = new RecordingProvider();
      await withSampling(revision, { ui, provider, kind: modern ? "memory" : "http" }, async (call, wire) => {
        const out = await call();
        assert.deepEqual(out.result, {
          role: "assistant",
          content: { type: "text", text: "IB-2: earliest and cheapest" },
          model: "local-large-2026",
          stopReason: "endTurn",
        });
        const [view] = ui.requests;
        assert.equal(view!.systemPrompt, "You are a travel expert helping users find the best flights");
        assert.equal(view!.messages[0]!.text, "Pick the best of these flights:\nBA-1 07:10 $420\nIB-2 06:55 $380");
        assert.deepEqual(view!.modelHints, ["claude-3-5-sonnet"]);
        assert.deepEqual(view!.priorities, { cost: 0.3, speed: 0.2, intelligence: 0.9 });
        assert.equal(view!.maxTokens, 1500);
        assert.equal(view!.model, "local-large");
        assert.equal(ui.answers[0]!.text, "IB-2: earliest and cheapest");
        // The model got the server's own text (the display is sanitized, the request is not rewritten).
        assert.equal(provider.asked[0]!.params.systemPrompt, REQUEST.systemPrompt);
        // Capabilities: sampling with tools, since a model is configured.
        const caps = capabilitiesSent(wire);
        assert.deepEqual(caps.sampling, { tools: {} });
        const sent = sentResults(wire, revision);
        assert.equal(sent.length, 1);
      });
    });

    test("an edited request reaches the model as edited", async () => {
      const ui = new ReviewUI({
        action: "approve",
        edit: { systemPrompt: "Be brief.", messages: { 0: "Just pick one." }, maxTokens: 200 },
      });
      const provider = new RecordingProvider();
      await withSampling(revision, { ui, provider }, async (call) => {
        await call();
        const { params } = provider.asked[0]!;
        assert.equal(params.systemPrompt, "Be brief.");
        assert.deepEqual(params.messages[0]!.content, { type: "text", text: "Just pick one." });
        assert.equal(params.maxTokens, 200);
        assert.equal(ui.requests.length, 1);
      });
    });

    test("an edited answer goes back instead of the model's", async () => {
      const ui = new ReviewUI({ action: "approve" }, { action: "approve", text: "BA-1, it has a lounge" });
      await withSampling(revision, { ui, provider: new RecordingProvider() }, async (call) => {
        const out = await call();
        assert.deepEqual(out.result.content, { type: "text", text: "BA-1, it has a lounge" });
        assert.equal(out.result.model, "local-large-2026");
      });
    });

    test("without a model the person types the answer; sampling is declared without tools", async () => {
      const ui = new ReviewUI({ action: "approve" }, { action: "approve", text: "IB-2" });
      await withSampling(revision, { ui }, async (call, wire) => {
        const out = await call();
        assert.deepEqual(out.result, {
          role: "assistant",
          content: { type: "text", text: "IB-2" },
          model: TYPED_BY_PERSON,
          stopReason: "endTurn",
        });
        assert.equal(ui.requests[0]!.model, undefined);
        assert.equal(ui.answers[0], undefined);
        assert.deepEqual(capabilitiesSent(wire).sampling, {});
      });
    });

    test("a failing model is reported to the person, who can still answer", async () => {
      const ui = new ReviewUI({ action: "approve" }, { action: "approve", text: "typed instead" });
      await withSampling(
        revision,
        { ui, provider: new RecordingProvider(new Error("HTTP 500 from http://127.0.0.1:1/v1")) },
        async (call) => {
          const out = await call();
          assert.equal(out.result.content.text, "typed instead");
          assert.match(ui.notices[0]!, /The model failed: HTTP 500/);
        },
      );
    });

    test("a denied request never reaches the model and is answered with the spec's user-rejected error", async () => {
      const ui = new ReviewUI({ action: "deny" });
      const provider = new RecordingProvider();
      await withSampling(revision, { ui, provider }, async (call) => {
        if (modern) {
          // 2026-07-28 has no error answer for an embedded request: the client ends the call instead.
          await assert.rejects(call(), /User rejected sampling request/);
        } else {
          const out = await call();
          assert.equal(out.error.code, -1);
          assert.match(out.error.message, /User rejected sampling request/);
        }
        assert.equal(provider.asked.length, 0);
      });
    });
  });
}

describe("attachSampling: a withdrawn request", () => {
  test("when the server withdraws the request while the model runs, the person is not asked for an answer", async () => {
    const ui = new ReviewUI({ action: "approve" }, { action: "approve", text: "typed too late" });
    let modelAborted = false;
    const provider: ModelProvider = {
      models: ["local-large"],
      chooseModel: () => "local-large",
      complete: (_params, { signal }) =>
        new Promise((_resolve, reject) =>
          signal!.addEventListener("abort", () => {
            modelAborted = true;
            reject(new Error("The model request was aborted"));
          }),
        ),
    };
    const client = clientFor("2025-11-25", {});
    attachSampling(client, { ui, provider });
    const factory = () => {
      const server = new McpServer({ name: "impatient", version: "1.0.0" });
      server.registerTool("sample", {}, async (ctx) => {
        try {
          await ctx.mcpReq.send({ method: "sampling/createMessage", params: REQUEST } as never, { timeout: 200 });
          return { content: [{ type: "text", text: "answered" }] };
        } catch (error) {
          return { content: [{ type: "text", text: (error as Error).message }] };
        }
      });
      return server;
    };
    const connection = await connect(client, factory, "2025-11-25", "memory");
    try {
      const result = (await client.callTool({ name: "sample", arguments: {} })) as CallToolResult;
      assert.match((result.content[0] as { text: string }).text, /timed out/i);
      await waitFor(() => modelAborted, { timeoutMs: 5_000, what: "the model call to be aborted with the request" });
      assert.equal(ui.requests.length, 1);
      assert.deepEqual(ui.answers, [], "no answer review for a withdrawn request");
      assert.deepEqual(ui.notices, [], "no 'model failed' notice for a withdrawn request");
    } finally {
      await connection.close();
    }
  });
});

describe("attachSampling: rate limit", () => {
  test("requests over the per-server limit are rejected without being shown, with a notice", async () => {
    const ui = new ReviewUI({ action: "approve" }, { action: "approve", text: "ok" });
    await withSampling("2025-11-25", { ui }, async (call) => {
      const outs = [];
      for (let i = 0; i < 5; i++) outs.push(await call());
      assert.equal(outs.filter((o) => o.result).length, 3);
      assert.deepEqual(
        outs.slice(3).map((o) => o.error.code),
        [-1, -1],
      );
      assert.equal(ui.requests.length, 3);
      assert.equal(ui.notices.length, 2);
      assert.match(ui.notices[0]!, /over the limit of 3 requests per 60 s/);
    });
  });
});

describe("attachRoots", () => {
  const base = mkdtempSync(join(tmpdir(), "elicit-roots-"));
  removeOnExit(base); // also when the file is cut before its after hooks
  const trips = join(base, "trips");
  const templates = join(base, "templates");
  mkdirSync(trips);
  mkdirSync(templates);
  writeFileSync(join(base, "file.txt"), "not a dir");
  test.after?.(() => rmSync(base, { recursive: true, force: true }));

  for (const revision of REVISIONS) {
    test(`roots are served as file:// URIs with names, and changes are announced on 2025 eras (${revision})`, async () => {
      const seen = { listChanged: 0 };
      const client = clientFor(revision, {});
      const roots = attachRoots(client, [trips, { path: templates, name: "Itinerary templates" }]);
      const connection = await connect(client, modelServer(seen), revision, "memory");
      try {
        const list = async () => resultJson(await client.callTool({ name: "roots", arguments: {} })).result.roots;
        assert.deepEqual(await list(), [
          { uri: pathToFileURL(trips).href, name: "trips" },
          { uri: pathToFileURL(templates).href, name: "Itinerary templates" },
        ]);
        assert.equal(await roots.remove(pathToFileURL(templates).href), true);
        assert.equal(await roots.remove(templates), false);
        await roots.add(base);
        assert.deepEqual(
          (await list()).map((r: { name: string }) => r.name),
          ["trips", base.split("/").pop()],
        );
        await new Promise((r) => setImmediate(r));
        assert.equal(seen.listChanged, revision === "2026-07-28" ? 0 : 2);
        assert.deepEqual(capabilitiesSent(connection.wire).roots, { listChanged: true });
        for (const result of sentResults(connection.wire, revision, "ListRootsResult")) assertWire(revision, "ListRootsResult", result);
      } finally {
        await connection.close();
      }
    });
  }

  test("a root that is not a directory is refused with a clear error", () => {
    const client = clientFor("2025-11-25", {});
    assert.throws(() => attachRoots(client, [join(base, "file.txt")]), /not a directory/);
    assert.throws(() => attachRoots(client, [join(base, "missing")]), /no such directory/);
  });
});

/** The capabilities the client declared, from initialize (2025) or the request envelope (2026). */
function capabilitiesSent(wire: WireMessage[]): Record<string, unknown> {
  const init = wire.find((w) => w.dir === "out" && w.message.method === "initialize");
  if (init) return init.message.params.capabilities;
  const call = wire.find((w) => w.dir === "out" && w.message.method === "tools/call");
  return call!.message.params._meta["io.modelcontextprotocol/clientCapabilities"];
}

/** Sampling (or roots) results the client sent, live or as inputResponses, each checked against schema.json. */
function sentResults(wire: WireMessage[], revision: ProtocolRevision, definition = "CreateMessageResult"): unknown[] {
  const method = definition === "CreateMessageResult" ? "sampling/createMessage" : "roots/list";
  const ids = new Set(wire.filter((w) => w.dir === "in" && w.message.method === method).map((w) => w.message.id));
  const out: unknown[] = [];
  for (const { dir, message } of wire) {
    if (dir !== "out") continue;
    if ("result" in message && ids.has(message.id)) out.push(message.result);
    if (message.method === "tools/call" && message.params?.inputResponses) out.push(...Object.values(message.params.inputResponses));
  }
  for (const r of out) assertWire(revision, definition, r);
  return out;
}
