// The inputs (ctx.elicit, ask, sample, roots, step, supports) are written once over a Delivery; this runs
// the same input tests over each way of asking: a live request on 2025-11-25, an input_required round on
// 2026-07-28 (both with real SDK clients and servers), and a tasks-shaped delivery made here, as a third
// way (the tasks extension) would be added: one more adapter, nothing in the inputs touched.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { McpServer, type ServerContext } from "@modelcontextprotocol/server";
import { form, integer, text, yesNo } from "../../../src/schema/index.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { createElicitation } from "../../../src/server/index.js";
import { clientInputs, type ClientInputs, type InputSettings } from "../../../src/server/inputs/client-inputs.js";
import type { Delivery, InputMethod } from "../../../src/server/inputs/delivery.js";
import { clientFor, connect } from "../../helpers/mcp.js";
import { jsonResult } from "../../helpers/results.js";

/** What the client answers, by method; each answerer gets the request's params and how many of that method came before. */
type Answerers = Partial<Record<InputMethod, (params: Record<string, any>, n: number) => unknown>>;
type Handler = (ctx: ClientInputs) => Promise<unknown>;
/** How one call ended (its value, or its error's message) and what the client was asked, in order. */
interface Ran {
  value?: unknown;
  error?: string;
  asked: { method: InputMethod; params: Record<string, any> }[];
}

const CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };
const SETTINGS: InputSettings = { timeoutMs: 10_000, progressIntervalMs: 15_000, attempts: 2 };

/** A real server and client on `revision`: the handler runs as a tool, the client's handlers answer. */
function overSdk(revision: ProtocolRevision) {
  return async (handler: Handler, answerers: Answerers): Promise<Ran> => {
    const kit = createElicitation({ attempts: SETTINGS.attempts });
    const factory = () => {
      const server = new McpServer({ name: "inputs", version: "1" });
      kit.registerTool(server, "run", { description: "runs the test's handler" }, async (_args, ctx) => jsonResult(await handler(ctx)));
      return server;
    };
    const client = clientFor(revision, CAPABILITIES);
    const asked: Ran["asked"] = [];
    for (const method of ["elicitation/create", "sampling/createMessage", "roots/list"] as const) {
      client.setRequestHandler(method, async (request: { params?: Record<string, any> }) => {
        const params = request.params ?? {};
        const n = asked.filter((a) => a.method === method).length;
        asked.push({ method, params });
        const answer = answerers[method];
        if (!answer) throw new Error(`the test did not expect ${method}`);
        return answer(params, n) as never;
      });
    }
    const conn = await connect(client, factory, revision, "memory");
    try {
      const result = (await client.callTool({ name: "run", arguments: {} })) as { isError?: boolean; content: { text: string }[] };
      const text = result.content[0]!.text;
      return result.isError ? { error: text, asked } : { value: JSON.parse(text), asked };
    } finally {
      await conn.close();
    }
  };
}

/**
 * A delivery shaped as the tasks extension's would be: the call is a task; each question becomes one of
 * the task's open input requests (its status "input_required"), a host watching the task's status
 * answers them, and the handler, never replayed, goes on. Steps run once, as the handler runs once.
 */
function taskDelivery(answerers: Answerers, asked: Ran["asked"]): Delivery {
  const task = new EventEmitter();
  const open = new Map<string, { method: InputMethod; params: Record<string, unknown>; answer: (raw: unknown) => void }>();
  const counts: Partial<Record<InputMethod, number>> = {};
  // The host: on each status change it reads the open requests and answers each (tasks/get, then the answer).
  task.on("status", () => {
    for (const [key, request] of open) {
      open.delete(key);
      const n = asked.filter((a) => a.method === request.method).length;
      asked.push({ method: request.method, params: request.params });
      const answer = answerers[request.method];
      queueMicrotask(() => request.answer(answer ? answer(request.params, n) : { error: "unexpected" }));
    }
  });
  return {
    ctx: {} as ServerContext,
    protocol: "2025-11-25",
    capabilities: CAPABILITIES,
    refusesUnsupported: true,
    clientName: () => "a task host",
    request(method, params, settle, { key }) {
      const n = (counts[method] = (counts[method] ?? 0) + 1);
      return new Promise((resolve, reject) => {
        open.set(key ?? `${method}-${n}`, {
          method,
          params,
          answer: (raw) => {
            try {
              resolve(settle(raw));
            } catch (error) {
              reject(error as Error);
            }
          },
        });
        queueMicrotask(() => task.emit("status", "input_required"));
      });
    },
    step: async (_name, fn) => fn(),
    roots: (ask) => ask(),
    urlFlow: () => Promise.reject(new Error("URL flows are not part of this test")),
  };
}

const overTasks = async (handler: Handler, answerers: Answerers): Promise<Ran> => {
  const asked: Ran["asked"] = [];
  const inputs = clientInputs(taskDelivery(answerers, asked), SETTINGS);
  try {
    // Through JSON, as a tool result would carry it.
    return { value: JSON.parse(JSON.stringify((await handler(inputs)) ?? null)), asked };
  } catch (error) {
    return { error: (error as Error).message, asked };
  }
};

const WAYS = {
  "live requests (2025-11-25)": overSdk("2025-11-25"),
  "input_required rounds (2026-07-28)": overSdk("2026-07-28"),
  "a tasks-shaped delivery (test adapter)": overTasks,
};

const booking = form({ name: text({ title: "Name" }), seats: integer({ title: "Seats", minimum: 1 }) });
const elicitations = (ran: Ran) => ran.asked.filter((a) => a.method === "elicitation/create").map((a) => a.params);

for (const [way, run] of Object.entries(WAYS)) {
  describe(`inputs over ${way}`, { timeout: 30_000 }, () => {
    test("ctx.elicit: the accepted answer comes back validated", async () => {
      const ran = await run((ctx) => ctx.elicit("Who travels?", booking), {
        "elicitation/create": () => ({ action: "accept", content: { name: "Ana", seats: 2 } }),
      });
      assert.deepEqual(ran.value, { action: "accept", content: { name: "Ana", seats: 2 } });
      const [asked] = elicitations(ran);
      assert.equal(asked!.message, "Who travels?");
      assert.deepEqual(Object.keys(asked!.requestedSchema.properties), ["name", "seats"]);
    });

    test("ctx.elicit: an invalid answer is asked again with the rule broken, the valid fields kept", async () => {
      const ran = await run((ctx) => ctx.elicit("Who travels?", booking), {
        "elicitation/create": (_params, n) => ({
          action: "accept",
          content: n === 0 ? { name: "Ana", seats: 0 } : { name: "Ana", seats: 3 },
        }),
      });
      assert.deepEqual(ran.value, { action: "accept", content: { name: "Ana", seats: 3 } });
      const [, again] = elicitations(ran);
      assert.match(again!.message, /^Who travels\?\n\nPlease correct the following and answer again:\n- Seats/);
      assert.equal(again!.requestedSchema.properties.name.default, "Ana", "the valid field is kept as the default");
      assert.equal(again!.requestedSchema.properties.seats.default, undefined, "the invalid one is not");
    });

    test("ctx.elicit: answers that stay invalid end the call with the attempts and the rule", async () => {
      const ran = await run((ctx) => ctx.elicit("Who travels?", booking), {
        "elicitation/create": () => ({ action: "accept", content: { name: "Ana", seats: 0 } }),
      });
      assert.match(ran.error ?? "", /^The answer was still invalid after 2 attempts: Seats/);
      assert.equal(elicitations(ran).length, 2);
    });

    test("ctx.elicit: decline and cancel are the person's choice, with no content", async () => {
      const ran = await run(async (ctx) => [await ctx.elicit("One?", booking), await ctx.elicit("Two?", booking)], {
        "elicitation/create": (_params, n) => ({ action: n === 0 ? "decline" : "cancel" }),
      });
      assert.deepEqual(ran.value, [{ action: "decline" }, { action: "cancel" }]);
    });

    test("ctx.ask: the accepted answer is the field's value; a validate hook asks again", async () => {
      const ran = await run(
        async (ctx) => {
          const go = await ctx.ask("Book it?", yesNo());
          const name = await ctx.ask("Name?", text(), { validate: (v) => (v.length < 2 ? "Too short" : undefined) });
          return { go, name };
        },
        { "elicitation/create": (_params, n) => ({ action: "accept", content: { answer: [true, "A", "Ana"][n] } }) },
      );
      assert.deepEqual(ran.value, { go: { action: "accept", content: true }, name: { action: "accept", content: "Ana" } });
      assert.match(elicitations(ran)[2]!.message, /- Too short/);
    });

    test("ctx.sample and ctx.roots: the client's answers, checked", async () => {
      const ran = await run(
        async (ctx) => {
          const reply = await ctx.sample({ messages: [{ role: "user", content: { type: "text", text: "Pick one" } }], maxTokens: 10 });
          return { reply: reply.content, roots: await ctx.roots() };
        },
        {
          "sampling/createMessage": () => ({
            role: "assistant",
            content: { type: "text", text: "BA-1" },
            model: "m",
            stopReason: "endTurn",
          }),
          "roots/list": () => ({ roots: [{ uri: "file:///home/ana/trips", name: "Trips" }] }),
        },
      );
      assert.deepEqual(ran.value, {
        reply: { type: "text", text: "BA-1" },
        roots: [{ uri: "file:///home/ana/trips", name: "Trips" }],
      });
      assert.deepEqual(
        ran.asked.map((a) => a.method),
        ["sampling/createMessage", "roots/list"],
      );
    });

    test("ctx.sample: a request that breaks the rules is refused before anything is sent", async () => {
      const ran = await run((ctx) => ctx.sample({ messages: [], maxTokens: 10 }), {});
      assert.match(ran.error ?? "", /^Invalid sampling request: /);
      assert.deepEqual(ran.asked, []);
    });

    test("ctx.step: its function runs once per call, however often the handler runs", async () => {
      let runs = 0;
      const ran = await run(
        async (ctx) => {
          const ticket = await ctx.step("ticket", () => ++runs);
          const go = await ctx.ask("Go?", yesNo());
          return { ticket, go: go.action === "accept" && go.content };
        },
        { "elicitation/create": () => ({ action: "accept", content: { answer: true } }) },
      );
      assert.deepEqual(ran.value, { ticket: 1, go: true });
      assert.equal(runs, 1);
    });

    test("questions asked together are all answered", async () => {
      const ran = await run(
        async (ctx) => {
          const [a, b] = await Promise.all([ctx.ask("First?", yesNo()), ctx.ask("Second?", text())]);
          return [a, b];
        },
        {
          "elicitation/create": (params) => ({ action: "accept", content: { answer: params.message === "First?" ? false : "two" } }),
        },
      );
      assert.deepEqual(ran.value, [
        { action: "accept", content: false },
        { action: "accept", content: "two" },
      ]);
    });

    test("ctx.supports: what the client declared, on this revision", async () => {
      const ran = await run(
        async (ctx) => ({
          form: ctx.supports("elicitation.form"),
          url: ctx.supports("elicitation.url"),
          tools: ctx.supports("sampling.tools"),
        }),
        {},
      );
      assert.deepEqual(ran.value, { form: true, url: false, tools: false });
    });
  });
}

test("the tasks-shaped delivery answers through the task's status, not a direct call", async () => {
  // The host learns of a question only from the task's status change: nothing is answered before it.
  const asked: Ran["asked"] = [];
  const delivery = taskDelivery({ "elicitation/create": () => ({ action: "accept", content: { answer: true } }) }, asked);
  const answer = clientInputs(delivery, SETTINGS).ask("Go?", yesNo());
  assert.equal(asked.length, 0, "asked synchronously: the host has not seen the task's status yet");
  assert.deepEqual(await answer, { action: "accept", content: true });
  assert.equal(asked.length, 1);
});
