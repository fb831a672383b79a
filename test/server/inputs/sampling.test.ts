// ctx.sample and ctx.supports end to end: raw SDK v2 clients answering sampling/createMessage,
// servers from createElicitation, in-memory and Streamable HTTP, on every revision. Every
// sampling, roots and elicitation message on the wire is checked against schema.json.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { setTimeout as sleep } from "node:timers/promises";
import { PROTOCOL_REVISIONS, type ProtocolRevision } from "../../../src/schema/types.js";
import { checkSampleParams } from "../../../src/server/inputs/sample.js";
import { SamplingParamsError } from "../../../src/server/index.js";
import { callWith, manualClient, type ManualCall } from "../../helpers/manual-client.js";
import { waitFor } from "../../helpers/deferred.js";
import { assertWireValid, clientFor, connect, connectRewritingResults, type TransportKind, type WireMessage } from "../../helpers/mcp.js";
import { answerWith } from "../../helpers/server-fixtures.js";
import { resultJson } from "../../helpers/results.js";
import { answerRoots, answerSampling, makeInputsFactory, reply, replyValue, weatherTool } from "../../helpers/inputs-fixtures.js";

const TRANSPORTS: TransportKind[] = ["memory", "http"];
type Caps = Record<string, unknown>;
type Conn = Awaited<ReturnType<typeof connect>>;

async function withConnection(
  revision: ProtocolRevision,
  kind: TransportKind,
  caps: Caps,
  body: (conn: Conn) => Promise<void>,
  options: Parameters<typeof makeInputsFactory>[0] = {},
) {
  const conn = await connect(clientFor(revision, caps), makeInputsFactory(options).factory, revision, kind);
  try {
    await body(conn);
  } finally {
    await conn.close(); // also checks every message on the wire against schema.json
  }
}

const rounds = (wire: WireMessage[]) =>
  wire.filter((w) => w.dir === "in" && w.message.result?.resultType === "input_required").map((w) => w.message.result);
const liveRequests = (wire: WireMessage[], method: string) => wire.filter((w) => w.dir === "in" && w.message.method === method);
const toolError = (result: unknown) => {
  const r = result as { isError?: boolean; content: { text: string }[]; structuredContent?: any };
  assert.equal(r.isError, true, `expected a tool error, got ${JSON.stringify(r)}`);
  return { text: r.content[0]!.text, structured: r.structuredContent };
};
const rejects32021 = (promise: Promise<unknown>, required: Caps) =>
  assert.rejects(promise, (e: any) => {
    assert.equal(e.code, -32021);
    assert.deepEqual(e.data.requiredCapabilities, required);
    return true;
  });

const toolUse = (id: string, city: string) => ({ type: "tool_use", id, name: "get_weather", input: { city } });

for (const revision of PROTOCOL_REVISIONS) {
  for (const kind of TRANSPORTS) {
    describe(`ctx.sample on ${revision} over ${kind}`, () => {
      test("the request goes out as the tool wrote it and the model's reply comes back", async () => {
        await withConnection(revision, kind, { sampling: {} }, async ({ client, wire }) => {
          const seen = answerSampling(client, [reply("France is a country.")]);
          const result = resultJson(await client.callTool({ name: "summarize", arguments: { text: "France" } }));
          assert.deepEqual(result, { answer: "France is a country.", model: "test-model-1", role: "assistant", protocol: revision });
          assert.equal(seen.length, 1);
          assert.deepEqual(seen[0]!.messages, [{ role: "user", content: { type: "text", text: "Summarize: France" } }]);
          assert.equal(seen[0]!.systemPrompt, "Be brief.");
          assert.equal(seen[0]!.maxTokens, 64);
          assert.deepEqual(seen[0]!.modelPreferences, { hints: [{ name: "claude" }], speedPriority: 0.8 });
          if (revision === "2026-07-28") {
            assert.deepEqual(
              rounds(wire).map((r) => Object.keys(r.inputRequests)),
              [["sample-1"]],
            );
            assert.equal(liveRequests(wire, "sampling/createMessage").length, 0, "no server→client request on 2026-07-28");
          } else {
            assert.equal(liveRequests(wire, "sampling/createMessage").length, 1);
          }
          assert.ok(assertWireValid(wire, revision) >= 2, "the request and the reply were checked against schema.json");
        });
      });

      test(
        "elicit, sample and roots asked together are all answered" + (revision === "2026-07-28" ? ", in ONE input_required round" : ""),
        async () => {
          const caps = { elicitation: { form: {} }, sampling: {}, roots: {} };
          await withConnection(revision, kind, caps, async ({ client, wire }) => {
            answerWith(client, [() => ({ action: "accept", content: { name: "Ada" } })]);
            answerSampling(client, [reply("Analytical Engine")]);
            answerRoots(client, () => [{ uri: "file:///home/ada/engine", name: "Engine" }]);
            const result = resultJson(await client.callTool({ name: "everything", arguments: {} }));
            assert.deepEqual(result, {
              who: { action: "accept", content: { name: "Ada" } },
              reply: { type: "text", text: "Analytical Engine" },
              roots: [{ uri: "file:///home/ada/engine", name: "Engine" }],
            });
            if (revision === "2026-07-28") {
              const all = rounds(wire);
              assert.equal(all.length, 1, "one round for all three");
              assert.deepEqual(Object.fromEntries(Object.entries(all[0].inputRequests).map(([k, r]: [string, any]) => [k, r.method])), {
                "elicit-1": "elicitation/create",
                "sample-1": "sampling/createMessage",
                "roots-1": "roots/list",
              });
              const retry = wire.find((w) => w.dir === "out" && w.message.params?.inputResponses)!;
              assert.deepEqual(Object.keys(retry.message.params.inputResponses).sort(), ["elicit-1", "roots-1", "sample-1"]);
            } else {
              for (const method of ["elicitation/create", "sampling/createMessage", "roots/list"])
                assert.equal(liveRequests(wire, method).length, 1, method);
            }
            // 2026-07-28: the input_required result and the retry's inputResponses; 2025: three requests and three results.
            const checked = assertWireValid(wire, revision);
            assert.ok(checked >= (revision === "2026-07-28" ? 2 : 6), `${checked} messages checked against schema.json`);
          });
        },
      );

      test("ctx.supports says what this client declared, as the revision allows it", async () => {
        await withConnection(revision, kind, { elicitation: { form: {} }, sampling: {} }, async ({ client }) => {
          assert.deepEqual(resultJson(await client.callTool({ name: "supports", arguments: {} })), {
            "elicitation.form": true,
            "elicitation.url": false,
            sampling: true,
            "sampling.tools": false,
            roots: false,
          });
        });
        const everything = { elicitation: { form: {}, url: {} }, sampling: { tools: {} }, roots: {} };
        await withConnection(revision, kind, everything, async ({ client }) => {
          const modern = revision !== "2025-06-18"; // URL mode and sampling tools do not exist on 2025-06-18
          assert.deepEqual(resultJson(await client.callTool({ name: "supports", arguments: {} })), {
            "elicitation.form": true,
            "elicitation.url": modern,
            sampling: true,
            "sampling.tools": modern,
            roots: true,
          });
        });
      });

      test("a client without sampling gets the fallback from ctx.supports, and a clear refusal from ctx.sample", async () => {
        await withConnection(revision, kind, { elicitation: {} }, async ({ client, wire }) => {
          assert.deepEqual(resultJson(await client.callTool({ name: "summarize_or_fallback", arguments: {} })), { fallback: true });
          const call = client.callTool({ name: "summarize", arguments: { text: "x" } });
          if (revision === "2026-07-28") {
            await rejects32021(call, { sampling: {} });
          } else {
            const { text, structured } = toolError(await call);
            assert.equal(
              text,
              'This tool needs an LLM completion from the client (sampling/createMessage), but the client did not declare the "sampling" capability.',
            );
            assert.deepEqual(structured, { error: "input_unavailable", capability: "sampling", request: "sampling/createMessage" });
          }
          assert.equal(liveRequests(wire, "sampling/createMessage").length, 0);
        });
      });
    });
  }
}

describe("sampling with tools", () => {
  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    for (const kind of TRANSPORTS) {
      test(`a tool loop runs against a client that declared sampling.tools, on ${revision} over ${kind}`, async () => {
        await withConnection(revision, kind, { sampling: { tools: {} } }, async ({ client, wire }) => {
          const seen = answerSampling(client, [
            () => ({
              role: "assistant",
              content: [toolUse("call_abc123", "Paris"), toolUse("call_def456", "London")],
              model: "m",
              stopReason: "toolUse",
            }),
            reply("Paris 18°C, London 18°C."),
          ]);
          assert.deepEqual(resultJson(await client.callTool({ name: "weather_agent", arguments: { maxTurns: 2 } })), {
            turns: 2,
            answer: "Paris 18°C, London 18°C.",
          });
          assert.deepEqual(seen[0]!.tools, [weatherTool]);
          assert.deepEqual(seen[0]!.toolChoice, { mode: "auto" });
          assert.deepEqual(seen[1]!.toolChoice, { mode: "none" });
          assert.deepEqual(
            seen[1]!.messages.map((m: any) => m.role),
            ["user", "assistant", "user"],
          );
          assert.deepEqual(
            seen[1]!.messages[2].content.map((b: any) => [b.type, b.toolUseId]),
            [
              ["tool_result", "call_abc123"],
              ["tool_result", "call_def456"],
            ],
          );
          if (revision === "2026-07-28")
            assert.deepEqual(
              rounds(wire).map((r) => Object.keys(r.inputRequests)),
              [["sample-1"], ["sample-2"]],
            );
        });
      });

      test(`tools are never sent to a client without sampling.tools, on ${revision} over ${kind}`, async () => {
        await withConnection(revision, kind, { sampling: {} }, async ({ client, wire }) => {
          const seen = answerSampling(client, [reply("unused")]);
          const call = client.callTool({ name: "weather_agent", arguments: { maxTurns: 2 } });
          if (revision === "2026-07-28") {
            await rejects32021(call, { sampling: { tools: {} } });
          } else {
            const { text, structured } = toolError(await call);
            assert.equal(
              text,
              'This tool needs sampling with tools (sampling/createMessage with tools or toolChoice), but the client did not declare the "sampling.tools" capability.',
            );
            assert.equal(structured.capability, "sampling.tools");
          }
          assert.equal(seen.length, 0);
          assert.equal(liveRequests(wire, "sampling/createMessage").length, 0);
        });
      });
    }
  }

  test("on 2025-06-18 tools do not exist: a clear error, even if the client claims sampling.tools", async () => {
    await withConnection("2025-06-18", "memory", { sampling: { tools: {} } }, async ({ client, wire }) => {
      const { text } = toolError(await client.callTool({ name: "weather_agent", arguments: { maxTurns: 2 } }));
      assert.match(
        text,
        /^Invalid sampling request: "tools" and "toolChoice" do not exist on protocol 2025-06-18 \(sampling with tools arrived in 2025-11-25\)/,
      );
      assert.equal(liveRequests(wire, "sampling/createMessage").length, 0);
    });
  });

  for (const revision of ["2025-11-25", "2026-07-28"] as const) {
    test(`tool_use / tool_result pairing is checked before sending, on ${revision}`, async () => {
      await withConnection(revision, "memory", { sampling: { tools: {} } }, async ({ client, wire }) => {
        const seen = answerSampling(client, [reply("unused")]);
        const cases: Record<string, string> = {
          unknownId:
            'Invalid sampling request: messages[2] has a tool_result for "call_9", which answers no tool_use of the message just before it (messages[1]).',
          unanswered:
            'Invalid sampling request: messages[2] must answer tool_use "call_1" of messages[1] with a tool_result before any other content.',
          mixed:
            "Invalid sampling request: messages[2] mixes tool_result blocks with other content; a message with tool results must contain only tool results.",
        };
        for (const [which, message] of Object.entries(cases)) {
          assert.equal(toolError(await client.callTool({ name: "bad_pairing", arguments: { case: which } })).text, message, which);
        }
        assert.equal(seen.length, 0, "nothing was sent");
        assert.equal(rounds(wire).length, 0);
      });
    });
  }
});

describe("checkSampleParams", () => {
  const text = (role: "user" | "assistant", t: string) => ({ role, content: { type: "text", text: t } });
  const use = (id: string) => ({ type: "tool_use", id, name: "get_weather", input: {} });
  const result = (id: string) => ({ type: "tool_result", toolUseId: id, content: [] });
  const problem = (params: unknown, protocol: ProtocolRevision = "2025-11-25") => {
    try {
      checkSampleParams(params, protocol);
    } catch (error) {
      assert.ok(error instanceof SamplingParamsError);
      return error.problem;
    }
    return "ok";
  };

  test("accepts the spec's tool loop and drops undefined members", () => {
    const params = {
      messages: [
        text("user", "Weather?"),
        { role: "assistant", content: [use("a"), use("b")] },
        { role: "user", content: [result("a"), result("b")] },
        text("assistant", "Sunny"),
      ],
      tools: [weatherTool],
      toolChoice: { mode: "auto" },
      maxTokens: 100,
      temperature: undefined,
    };
    assert.equal(problem(params), "ok");
    assert.equal("temperature" in checkSampleParams(params, "2025-11-25"), false);
  });

  test("names the member, message index and tool_use id at fault", () => {
    const ok = [text("user", "hi")];
    const cases: [unknown, string, ProtocolRevision?][] = [
      [null, "the params must be an object with messages and maxTokens."],
      [{ messages: [], maxTokens: 5 }, '"messages" must be a non-empty array.'],
      [{ messages: ok }, '"maxTokens" must be a positive integer (the client must respect it).'],
      [{ messages: ok, maxTokens: 1.5 }, '"maxTokens" must be a positive integer (the client must respect it).'],
      [
        { messages: [{ role: "system", content: { type: "text", text: "x" } }], maxTokens: 5 },
        'messages[0].role must be "user" or "assistant".',
      ],
      [{ messages: [{ role: "user" }], maxTokens: 5 }, "messages[0] has no content."],
      [{ messages: [{ role: "user", content: { type: "text" } }], maxTokens: 5 }, 'messages[0].content (text) needs a string "text".'],
      [
        { messages: [{ role: "user", content: { type: "video", url: "x" } }], maxTokens: 5 },
        'messages[0].content has type "video"; sampling messages hold text, image, audio, tool_use or tool_result blocks.',
      ],
      [
        { messages: [{ role: "user", content: [{ type: "text", text: "a" }] }], maxTokens: 5 },
        "messages[0].content is an array, which protocol 2025-06-18 does not allow (one content block per message).",
        "2025-06-18",
      ],
      [
        {
          messages: [
            { role: "assistant", content: use("a") },
            { role: "user", content: result("a") },
          ],
          maxTokens: 5,
        },
        "messages[0].content is a tool_use block, which does not exist on protocol 2025-06-18 (sampling with tools arrived in 2025-11-25).",
        "2025-06-18",
      ],
      [
        { messages: ok, maxTokens: 5, modelPreferences: { speedPriority: 2 } },
        "modelPreferences.speedPriority must be a number from 0 to 1.",
      ],
      [{ messages: ok, maxTokens: 5, includeContext: "everything" }, '"includeContext" must be "none", "thisServer" or "allServers".'],
      [{ messages: ok, maxTokens: 5, tools: [{ name: "t" }] }, 'tools[0] ("t") needs an "inputSchema" of type "object".'],
      [
        { messages: ok, maxTokens: 5, toolChoice: { mode: "always" } },
        'toolChoice.mode must be "auto", "required" or "none", not "always".',
      ],
      [
        { messages: [{ role: "user", content: result("a") }], maxTokens: 5 },
        'messages[0] has a tool_result for "a", which answers no tool_use of the message just before it.',
      ],
      [
        { messages: [{ role: "user", content: use("a") }], maxTokens: 5 },
        "messages[0] has a tool_use block in a user message; tool uses come from the assistant.",
      ],
      [
        {
          messages: [
            { role: "assistant", content: [use("a"), use("b")] },
            { role: "user", content: result("a") },
          ],
          maxTokens: 5,
        },
        'messages[1] must answer tool_use "b" of messages[0] with a tool_result before any other content.',
      ],
      [
        { messages: [text("user", "x"), { role: "assistant", content: use("a") }], maxTokens: 5 },
        'tool_use "a" of messages[1] is not answered; add a user message with its tool_result.',
      ],
      [
        {
          messages: [
            { role: "assistant", content: [use("a"), use("a")] },
            { role: "user", content: result("a") },
          ],
          maxTokens: 5,
        },
        'messages[0] uses the tool_use id "a" twice.',
      ],
      [
        {
          messages: [
            { role: "assistant", content: use("a") },
            { role: "user", content: [result("a"), result("a")] },
          ],
          maxTokens: 5,
        },
        'messages[1] answers tool_use "a" twice.',
      ],
    ];
    for (const [params, expected, protocol] of cases) assert.equal(problem(params, protocol), expected);
  });
});

describe("waiting for the model on 2025-11-25", () => {
  for (const kind of TRANSPORTS) {
    test(`progress flows while the client reviews the request, over ${kind}`, async () => {
      await withConnection(
        "2025-11-25",
        kind,
        { sampling: {} },
        async ({ client }) => {
          const progress: { progress: number; message?: string }[] = [];
          // The client answers once two progress notifications came (a busy machine may take longer than any fixed wait).
          answerSampling(client, [
            async () => (await waitFor(() => progress.length >= 2, { what: "two progress notifications" }), replyValue("done")),
          ]);
          const result = await client.callTool({ name: "summarize", arguments: { text: "x" } }, {
            onprogress: (p: { progress: number; message?: string }) => progress.push(p),
            resetTimeoutOnProgress: true,
          } as never);
          assert.equal(resultJson(result).answer, "done");
          assert.ok(progress.length >= 2, `got ${progress.length} progress notifications`);
          assert.equal(progress[0]!.message, "Waiting for the user: sampling/createMessage");
        },
        { progressIntervalMs: 25 },
      );
    });

    test(`an unanswered request times out after the per-call wait and is withdrawn, over ${kind}`, async () => {
      await withConnection("2025-11-25", kind, { sampling: {} }, async ({ client }) => {
        let withdrawn = false;
        answerSampling(client, [
          (_p, ctx) =>
            new Promise((resolve) =>
              ctx.mcpReq.signal.addEventListener("abort", () => {
                withdrawn = true;
                resolve(replyValue("late"));
              }),
            ),
        ]);
        const { text } = toolError(await client.callTool({ name: "summarize", arguments: { text: "x", timeoutMs: 120 } }));
        assert.equal(text, 'No answer to "sampling/createMessage" within 120 ms; the request was withdrawn.');
        await waitFor(() => withdrawn, { timeoutMs: 5_000, what: "the client to see the request cancelled" });
      });
    });

    test(`cancelling the tool call withdraws the sampling request, over ${kind}`, async () => {
      await withConnection("2025-11-25", kind, { sampling: {} }, async ({ client }) => {
        let asked!: () => void;
        const wasAsked = new Promise<void>((r) => (asked = r));
        let withdrawn!: () => void;
        const wasWithdrawn = new Promise<void>((r) => (withdrawn = r));
        answerSampling(client, [
          (_p, ctx) =>
            new Promise((resolve) => {
              asked();
              ctx.mcpReq.signal.addEventListener("abort", () => {
                withdrawn();
                resolve(replyValue("late"));
              });
            }),
        ]);
        const controller = new AbortController();
        const call = client.callTool({ name: "summarize", arguments: { text: "x" } }, { signal: controller.signal } as never);
        await wasAsked;
        controller.abort("changed my mind");
        await assert.rejects(call);
        await Promise.race([wasWithdrawn, sleep(2000).then(() => assert.fail("the sampling request was not withdrawn"))]);
      });
    });
  }
});

describe("a malformed answer from the client", () => {
  test("on 2025-11-25 the tool ends with a clear error naming what was wrong", async () => {
    // The SDK client checks its own handler's result, so the bad answer is written onto the wire below it.
    const client = clientFor("2025-11-25", { sampling: {} });
    await connectRewritingResults(client, makeInputsFactory().factory, (result) => ({ ...result, role: "robot" }));
    try {
      answerSampling(client, [reply("fine")]);
      const { text } = toolError(await client.callTool({ name: "summarize", arguments: { text: "x" } }));
      assert.match(
        text,
        /^The client's answer to sampling\/createMessage is not valid: role: Invalid option: expected one of "user"\|"assistant"\.$/,
      );
    } finally {
      await client.close();
    }
  });

  test("on 2026-07-28 (an inputResponse) the tool ends with a clear error, not a crash", async () => {
    const client = manualClient({ sampling: {} });
    await connect(client, makeInputsFactory().factory, "2026-07-28", "memory");
    const call = (params: Partial<ManualCall>) => callWith(client)({ name: "summarize", arguments: { text: "x" }, ...params });
    try {
      const first = await call({});
      assert.deepEqual(Object.keys(first.inputRequests), ["sample-1"]);
      const answers: [unknown, string][] = [
        [{ role: "robot", content: { type: "text", text: "x" }, model: "m" }, 'its role is "robot", not "assistant" or "user".'],
        [{ role: "assistant", model: "m" }, "it has no content."],
        [{ role: "assistant", content: [{ text: "no type" }], model: "m" }, 'content[0] is not a content block with a "type".'],
      ];
      // Each answer in a call of its own: a finished call answers any later state with its recorded result.
      for (const [answer, problem] of answers) {
        const { requestState } = await call({});
        const { text } = toolError(await call({ inputResponses: { "sample-1": answer }, requestState }));
        assert.equal(text, `The client's answer to sampling/createMessage is not valid: ${problem}`);
      }
    } finally {
      await client.close(); // no wire check: the wire holds invalid answers on purpose
    }
  });
});
