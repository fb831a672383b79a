// The tool call's clock, aware of the person, against a raw SDK server over Streamable HTTP: a person
// who takes longer than the timeout does not lose the call (form on 2025-11-25 and 2026-07-28, a
// sampling review); a tool that works longer than the timeout while sending progress is not cut; a
// silent one is, with a message that says so, and the server hears the cancel; the ceiling bounds the
// whole call, the person's time included. The timeout is shortened to 2 s through the options, so
// "longer than the timeout" is seconds, not 31 minutes. (2 s, not less: before the person is asked, the
// server must answer within the timeout, and a loaded 2-core machine took more than 300 ms to.)
import { test } from "node:test";
import assert from "node:assert/strict";
import type { CallToolResult } from "@modelcontextprotocol/client";
import { inputRequired, McpServer, type ServerContext } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation, type AttachOptions } from "../../src/client/attach.js";
import { attachSampling, type SamplingOptions } from "../../src/client/sampling.js";
import type { ElicitationUI, FormAnswer, SamplingAnswerReview, SamplingRequestReview } from "../../src/client/ui.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { deferred } from "../helpers/deferred.js";
import { clientFor, connect } from "../helpers/mcp.js";
import { jsonResult, resultJson, sendToClient } from "../helpers/results.js";

const TIMEOUT_MS = 2_000;
/** The person's think time, and the tool's work: two and a half times the timeout. */
const LONG_MS = 5_000;
const CEILING_MS = 4_000;
/** The server waits for the person longer than the person takes. */
const SERVER_WAIT_MS = 60_000;

const FORM = {
  message: "Which seat?",
  requestedSchema: { type: "object", properties: { seat: { type: "string" } }, required: ["seat"] },
};

/** Resolves after `ms`, or at once when `signal` aborts: the tool's work (or the person's thinking), not a wait for an event. */
const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener("abort", done, { once: true });
  });

/** What the server saw of the `silent` tool: whether the client withdrew it. */
const withdrawn = deferred();

function server(): McpServer {
  const s = new McpServer({ name: "clock-server", version: "1.0.0" });
  s.registerTool("ask", {}, async (ctx: ServerContext) => jsonResult(await sendToClient(ctx, "elicitation/create", FORM, SERVER_WAIT_MS)));
  s.registerTool("ask26", {}, async (ctx: ServerContext) => {
    const answers = ctx.mcpReq.inputResponses;
    if (!answers) return inputRequired({ inputRequests: { seat: inputRequired.elicit(FORM as never) }, requestState: "r1" });
    return jsonResult(answers);
  });
  s.registerTool("sample", {}, async (ctx: ServerContext) =>
    jsonResult(
      await sendToClient(
        ctx,
        "sampling/createMessage",
        {
          messages: [{ role: "user", content: { type: "text", text: "Hi" } }],
          maxTokens: 10,
        },
        SERVER_WAIT_MS,
      ),
    ),
  );
  s.registerTool("work", { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, ctx: ServerContext) => {
    const token = ctx.mcpReq._meta?.progressToken;
    for (let done = 0, step = 1; done < ms; done += 100, step++) {
      await pause(100, ctx.mcpReq.signal);
      if (token !== undefined)
        await ctx.mcpReq.notify({ method: "notifications/progress", params: { progressToken: token, progress: step } });
    }
    return jsonResult({ worked: ms });
  });
  s.registerTool("silent", { inputSchema: z.object({ ms: z.number() }) }, async ({ ms }, ctx: ServerContext) => {
    await pause(ms, ctx.mcpReq.signal);
    if (ctx.mcpReq.signal.aborted) withdrawn.resolve();
    return jsonResult({ silentFor: ms });
  });
  return s;
}

/** A person who answers every form after `thinkMs`. */
class SlowPerson implements ElicitationUI {
  forms = 0;
  constructor(private readonly thinkMs: number) {}
  async form(): Promise<FormAnswer> {
    this.forms++;
    await pause(this.thinkMs);
    return { action: "accept", content: { seat: "window" } };
  }
  async url() {
    return "decline" as const;
  }
  notice() {}
}

async function session(revision: ProtocolRevision, options: Partial<AttachOptions> & { sampling?: SamplingOptions["ui"] } = {}) {
  const client = clientFor(revision, {});
  const person = new SlowPerson(LONG_MS);
  const { sampling, ...attach } = options;
  const handle = attachElicitation(client, { ui: person, ...attach });
  if (sampling) attachSampling(client, { ui: sampling });
  const connection = await connect(client, server, revision, "http");
  /** A call with the shortened timeout (a call's own option; `requestClock.timeoutMs` sets the default, tested last). */
  const call = (name: string, args: Record<string, unknown> = {}, callOptions: Parameters<typeof handle.callTool>[1] = {}) =>
    handle.callTool({ name, arguments: args }, { timeout: TIMEOUT_MS, ...callOptions });
  return { client, handle, person, call, close: () => connection.close() };
}

const timedOut = (pattern: RegExp) => (error: Error & { code?: unknown }) =>
  error.name === "SdkError" && /Request timed out/.test(error.message) && pattern.test(error.message);

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  test(`${revision}: a person who takes longer than the timeout to answer does not lose the call`, { timeout: 60_000 }, async (t) => {
    const s = await session(revision);
    t.after(() => s.close());
    const started = Date.now();
    const result = (await s.call(revision === "2026-07-28" ? "ask26" : "ask")) as CallToolResult;
    const ms = Date.now() - started;
    t.diagnostic(`answered after ${ms} ms with a ${TIMEOUT_MS} ms timeout`);
    assert.equal(s.person.forms, 1);
    assert.ok(ms >= LONG_MS, `${ms} ms`);
    const answer = resultJson(result);
    const content = revision === "2026-07-28" ? answer.seat.content : answer.result.content;
    assert.deepEqual(content, { seat: "window" });
  });
}

test("2025-11-25: a sampling review longer than the timeout does not lose the call either", { timeout: 60_000 }, async (t) => {
  const s = await session("2025-11-25", {
    sampling: {
      async reviewRequest(): Promise<SamplingRequestReview> {
        await pause(LONG_MS / 2);
        return { action: "approve" };
      },
      async reviewAnswer(): Promise<SamplingAnswerReview> {
        await pause(LONG_MS / 2);
        return { action: "approve", text: "Hello" };
      },
      notice() {},
    },
  });
  t.after(() => s.close());
  const result = resultJson(await s.call("sample"));
  assert.equal(result.result?.content?.text, "Hello", JSON.stringify(result));
});

test(
  "a tool that works longer than the timeout while sending progress is not cut; the host's onprogress still hears it",
  { timeout: 60_000 },
  async (t) => {
    const s = await session("2025-11-25");
    t.after(() => s.close());
    let heard = 0;
    const result = await s.call("work", { ms: LONG_MS }, { onprogress: () => heard++ });
    assert.deepEqual(resultJson(result), { worked: LONG_MS });
    assert.ok(heard >= 5, `${heard} progress notifications`);
  },
);

test("a tool silent for longer than the timeout is cut, says why, and the server hears the cancel", { timeout: 60_000 }, async (t) => {
  const s = await session("2025-11-25");
  t.after(() => s.close());
  const started = Date.now();
  await assert.rejects(
    s.call("silent", { ms: 10_000 }),
    timedOut(
      new RegExp(
        `no answer and no progress from the server for ${TIMEOUT_MS / 1000} s \\(the time you took to answer is not counted; see the timeout option\\)`,
      ),
    ),
  );
  const ms = Date.now() - started;
  t.diagnostic(`cut after ${ms} ms`);
  assert.ok(ms >= TIMEOUT_MS && ms < TIMEOUT_MS + 5_000, `${ms} ms`);
  await withdrawn.promise;
});

test("without resetTimeoutOnProgress, progress does not keep a call alive", { timeout: 60_000 }, async (t) => {
  const s = await session("2025-11-25");
  t.after(() => s.close());
  await assert.rejects(s.call("work", { ms: LONG_MS }, { resetTimeoutOnProgress: false }), timedOut(/no answer and no progress/));
});

test("the ceiling bounds the whole call, the person's time included", { timeout: 60_000 }, async (t) => {
  const s = await session("2025-11-25", { requestClock: { timeoutMs: TIMEOUT_MS, ceilingMs: CEILING_MS } });
  t.after(() => s.close());
  // The handle's defaults apply to a call that names neither bound.
  await assert.rejects(
    s.handle.callTool({ name: "ask", arguments: {} }),
    timedOut(new RegExp(`longer than its ceiling of ${CEILING_MS / 1000} s, the time you took to answer included \\(maxTotalTimeout\\)`)),
  );
  // A call's own maxTotalTimeout wins over the default.
  const result = resultJson(await s.handle.callTool({ name: "ask", arguments: {} }, { maxTotalTimeout: 30_000 }));
  assert.deepEqual(result.result.content, { seat: "window" });
});

test("a timeout that is not a positive number is refused before anything is sent", { timeout: 60_000 }, async (t) => {
  const s = await session("2025-11-25");
  t.after(() => s.close());
  await assert.rejects(s.call("ask", {}, { timeout: 0 }), /callTool: timeout must be a number of milliseconds greater than 0; got 0/);
  assert.equal(s.person.forms, 0);
});
