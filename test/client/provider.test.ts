// The OpenAI-compatible model provider against a real HTTP server speaking chat completions:
// what it sends (request mapping), what it returns (valid CreateMessageResults), how it fails
// (ProviderError kinds and messages), model choice, and configuration from the environment.
import { after, afterEach, before, beforeEach, describe, test } from "node:test";
import assert from "node:assert/strict";
import { chooseModel, normalizeModels, type ModelSpec } from "../../src/client/providers/models.js";
import { openAICompatibleProvider, providerFromEnv, type OpenAICompatibleOptions } from "../../src/client/providers/openai.js";
import { ProviderError, type ProviderErrorKind, type SamplingParams } from "../../src/client/providers/provider.js";
import { closedPort, completion, startChatServer, type ChatServer } from "../fixtures/chat-server.js";
import { assertWire } from "../helpers/wire.js";

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);
process.on("unhandledRejection", onUnhandled);
after(() => {
  process.off("unhandledRejection", onUnhandled);
  assert.deepEqual(unhandled, [], "no unhandled rejections");
});

const valid = (result: unknown) => assertWire("2025-11-25", "CreateMessageResult", result);

async function rejectsWith(promise: Promise<unknown>, kind: ProviderErrorKind, ...parts: (string | RegExp)[]): Promise<ProviderError> {
  const error = await promise.then(
    () => assert.fail(`expected a ProviderError "${kind}"`),
    (e: unknown) => e,
  );
  assert.ok(error instanceof ProviderError, `not a ProviderError: ${String(error)}`);
  assert.equal(error.kind, kind, error.message);
  for (const p of parts) assert.match(error.message, typeof p === "string" ? new RegExp(p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")) : p);
  return error;
}

const ask = (text: string, extra: Partial<SamplingParams> = {}): SamplingParams => ({
  messages: [{ role: "user", content: { type: "text", text } }],
  maxTokens: 100,
  ...extra,
});

describe("model choice", () => {
  const specs: ModelSpec[] = normalizeModels([
    { name: "llama-3.1-8b", cost: 0, speed: 0.9, intelligence: 0.3, aliases: ["claude-3-haiku"] },
    { name: "gpt-4o-mini", cost: 0.2, speed: 0.8, intelligence: 0.6 },
    { name: "gpt-4o", cost: 0.8, speed: 0.5, intelligence: 0.9 },
  ]);

  test("hints are substrings, case-insensitive, taken in the server's order; aliases map foreign names", () => {
    assert.equal(chooseModel(specs, { hints: [{ name: "claude-3-sonnet" }, { name: "4O-MINI" }, { name: "llama" }] }), "gpt-4o-mini");
    assert.equal(chooseModel(specs, { hints: [{ name: "claude-3-haiku" }] }), "llama-3.1-8b");
    assert.equal(
      chooseModel(specs, { hints: [{}, { name: "  " }, { name: "GPT-4o" }] }),
      "gpt-4o",
      "an exact name beats a longer one containing it",
    );
  });

  test("several models matching one hint are told apart by priorities, else the first configured wins", () => {
    assert.equal(chooseModel(specs, { hints: [{ name: "gpt" }], costPriority: 1 }), "gpt-4o-mini");
    assert.equal(chooseModel(specs, { hints: [{ name: "gpt" }], intelligencePriority: 1 }), "gpt-4o");
    assert.equal(chooseModel(specs, { hints: [{ name: "gpt" }] }), "gpt-4o-mini");
  });

  test("without a matching hint, priorities weigh the declared scores", () => {
    assert.equal(chooseModel(specs, { hints: [{ name: "gemini" }], intelligencePriority: 0.9, speedPriority: 0.2 }), "gpt-4o");
    assert.equal(chooseModel(specs, { costPriority: 0.8, intelligencePriority: 0.3 }), "llama-3.1-8b");
    // 0.5×0.8 + 0.5×0.6 = 0.7 beats 0.5×0.9 + 0.5×0.3 = 0.6 and 0.5×0.5 + 0.5×0.9 = 0.7 (tie: configured earlier)
    assert.equal(chooseModel(specs, { speedPriority: 0.5, intelligencePriority: 0.5 }), "gpt-4o-mini");
  });

  test("the first model is the default: no preferences, zero priorities, or no model declares scores", () => {
    assert.equal(chooseModel(specs), "llama-3.1-8b");
    assert.equal(chooseModel(specs, { costPriority: 0, speedPriority: 0 }), "llama-3.1-8b");
    assert.equal(chooseModel(normalizeModels("b-model, a-model"), { intelligencePriority: 1 }), "b-model");
  });

  test("bad model lists are config errors", () => {
    for (const [models, text] of [
      [" , ", "no model"],
      ["a,a", "twice"],
      [[{ name: "a", speed: 2 }], "speed must be"],
    ] as const) {
      assert.throws(
        () => normalizeModels(models as never),
        (e: unknown) => e instanceof ProviderError && e.kind === "config" && e.message.includes(text),
      );
    }
  });
});

describe("openAICompatibleProvider against a chat-completions server", () => {
  let server: ChatServer;
  const provider = (extra: Partial<OpenAICompatibleOptions> = {}) =>
    openAICompatibleProvider({
      baseURL: server.baseURL,
      apiKey: "sk-test-secret",
      models: ["small-model", "big-model"],
      maxRetries: 0,
      ...extra,
    });

  before(async () => (server = await startChatServer()));
  after(() => server.close());
  beforeEach(() => {
    server.received.length = 0;
    server.replies.length = 0;
    server.fallback = { json: completion({ content: "ok" }) };
  });

  test("a text answer: system prompt, messages, max tokens, stop, temperature and the hinted model go out", async () => {
    server.replies.push({ json: completion({ content: "Paris." }, "stop", "big-model-2025-01") });
    const p = provider();
    const params = ask("Capital of France?", {
      systemPrompt: "Be brief.",
      stopSequences: ["\n\n"],
      temperature: 0.2,
      modelPreferences: { hints: [{ name: "big" }] },
      // Not sent: provider-specific metadata, and a tool choice without tools (the API rejects it).
      metadata: { ignored: true },
      toolChoice: { mode: "auto" },
    });
    const result = await p.complete(params, { model: p.chooseModel(params.modelPreferences) });
    valid(result);
    assert.deepEqual(result, {
      role: "assistant",
      content: { type: "text", text: "Paris." },
      model: "big-model-2025-01",
      stopReason: "endTurn",
    });
    const [req] = server.received;
    assert.equal(req?.path, "/v1/chat/completions");
    assert.equal(req?.headers.authorization, "Bearer sk-test-secret");
    assert.deepEqual(req?.body, {
      model: "big-model",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "Capital of France?" },
      ],
      max_tokens: 100,
      temperature: 0.2,
      stop: ["\n\n"],
    });
    assert.deepEqual(p.models, ["small-model", "big-model"]);
  });

  test("without an API key no Authorization header is sent; maxTokensField picks max_completion_tokens", async () => {
    const p = provider({ apiKey: undefined, maxTokensField: "max_completion_tokens" });
    valid(await p.complete(ask("hi"), { model: "small-model" }));
    const [req] = server.received;
    assert.equal(req?.headers.authorization, undefined);
    assert.equal(req?.body.max_completion_tokens, 100);
    assert.equal("max_tokens" in (req?.body ?? {}), false);
  });

  test("tools become functions; tool_calls come back as tool_use blocks with parsed input", async () => {
    const toolCall = (id: string, city: string) => ({
      id,
      type: "function",
      function: { name: "get_weather", arguments: JSON.stringify({ city }) },
    });
    server.replies.push({
      json: completion({ content: null, tool_calls: [toolCall("call_1", "Paris"), toolCall("call_2", "London")] }, "tool_calls"),
    });
    const inputSchema = { type: "object" as const, properties: { city: { type: "string" } }, required: ["city"] };
    const result = await provider().complete(
      ask("Weather in Paris and London?", {
        tools: [{ name: "get_weather", description: "Current weather", inputSchema }],
        toolChoice: { mode: "required" },
      }),
      { model: "small-model" },
    );
    valid(result);
    assert.deepEqual(result.content, [
      { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
      { type: "tool_use", id: "call_2", name: "get_weather", input: { city: "London" } },
    ]);
    assert.equal(result.stopReason, "toolUse");
    const body = server.received[0]?.body;
    assert.deepEqual(body?.tools, [
      { type: "function", function: { name: "get_weather", description: "Current weather", parameters: inputSchema } },
    ]);
    assert.equal(body?.tool_choice, "required");
  });

  test("a tool_use / tool_result history maps to assistant tool_calls and one tool message per result", async () => {
    server.replies.push({ json: completion({ content: "18°C in Paris; London failed." }) });
    const params: SamplingParams = {
      messages: [
        { role: "user", content: { type: "text", text: "Weather?" } },
        {
          role: "assistant",
          content: [
            { type: "text", text: "Checking." },
            { type: "tool_use", id: "call_1", name: "get_weather", input: { city: "Paris" } },
            { type: "tool_use", id: "call_2", name: "get_weather", input: { city: "London" } },
          ],
        },
        {
          role: "user",
          content: [
            {
              type: "tool_result",
              toolUseId: "call_1",
              content: [
                { type: "text", text: "18°C" },
                { type: "resource_link", name: "map", uri: "https://example.com/m" },
              ],
            },
            { type: "tool_result", toolUseId: "call_2", content: [], structuredContent: { reason: "timeout" }, isError: true },
          ],
        },
      ],
      maxTokens: 50,
      tools: [{ name: "get_weather", inputSchema: { type: "object" } }],
      toolChoice: { mode: "none" },
    };
    valid(await provider().complete(params, { model: "small-model" }));
    const body = server.received[0]?.body;
    assert.deepEqual(body?.messages, [
      { role: "user", content: "Weather?" },
      {
        role: "assistant",
        content: "Checking.",
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Paris"}' } },
          { id: "call_2", type: "function", function: { name: "get_weather", arguments: '{"city":"London"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "18°C\n[resource: map <https://example.com/m>]" },
      { role: "tool", tool_call_id: "call_2", content: 'Error: {"reason":"timeout"}' },
    ]);
    assert.equal(body?.tool_choice, "none");
  });

  test("images become data URIs and wav/mp3 audio input_audio; other audio and mixed tool results fail before any request", async () => {
    const content = [
      { type: "text" as const, text: "Describe both." },
      { type: "image" as const, data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio" as const, data: "UklGRg==", mimeType: "audio/wav" },
    ];
    valid(await provider().complete({ messages: [{ role: "user", content }], maxTokens: 10 }, { model: "small-model" }));
    assert.deepEqual((server.received[0]?.body.messages as unknown[])[0], {
      role: "user",
      content: [
        { type: "text", text: "Describe both." },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
        { type: "input_audio", input_audio: { data: "UklGRg==", format: "wav" } },
      ],
    });
    const ogg: SamplingParams = {
      messages: [{ role: "user", content: { type: "audio", data: "T2dnUw==", mimeType: "audio/ogg" } }],
      maxTokens: 10,
    };
    await rejectsWith(provider().complete(ogg, { model: "small-model" }), "unsupported", "audio/ogg", "wav or mp3", 'model "small-model"');
    const mixed: SamplingParams = {
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "x" },
            { type: "tool_result", toolUseId: "c", content: [] },
          ],
        },
      ],
      maxTokens: 10,
    };
    await rejectsWith(provider().complete(mixed, { model: "small-model" }), "invalid_request", "mixes tool results");
    assert.equal(server.received.length, 1);
  });

  test("finish reasons: length → maxTokens, content_filter passes through, tool calls win over a 'stop', refusals", async () => {
    const cases: [Record<string, unknown>, string, unknown, string][] = [
      [{ content: "Once upon" }, "length", { type: "text", text: "Once upon" }, "maxTokens"],
      [{ content: "" }, "content_filter", { type: "text", text: "" }, "content_filter"],
      [{ content: null, refusal: "I can't help with that." }, "stop", { type: "text", text: "I can't help with that." }, "refusal"],
      [
        { tool_calls: [{ id: "", type: "function", function: { name: "now", arguments: "" } }] },
        "stop",
        [{ type: "tool_use", id: "call_0", name: "now", input: {} }],
        "toolUse",
      ],
    ];
    for (const [message, finish, content, stopReason] of cases) {
      server.replies.push({ json: completion(message, finish) });
      const result = await provider().complete(ask("go"), { model: "small-model" });
      valid(result);
      assert.deepEqual([result.content, result.stopReason], [content, stopReason], finish);
    }
  });

  test("HTTP errors carry the status, the provider's message, the model and the base URL, never the key", async () => {
    server.replies.push({ status: 500, json: { error: { message: "model crashed", type: "server_error" } } });
    const e500 = await rejectsWith(
      provider().complete(ask("x"), { model: "small-model" }),
      "http",
      "HTTP 500",
      "model crashed",
      'model "small-model"',
      server.baseURL,
    );
    assert.deepEqual([e500.status, e500.providerMessage], [500, "model crashed"]);
    server.replies.push({ status: 401, json: { error: { message: "Incorrect API key provided", code: "invalid_api_key" } } });
    const e401 = await rejectsWith(
      provider().complete(ask("x"), { model: "small-model" }),
      "http",
      "HTTP 401",
      "Incorrect API key provided",
    );
    assert.equal(e401.message.includes("sk-test-secret"), false);
  });

  test("error bodies of other servers keep their message: vLLM, Ollama, FastAPI, plain text", async () => {
    const bodies: [{ json?: unknown; text?: string }, string][] = [
      [{ json: { object: "error", message: "max_tokens is too large", type: "BadRequestError" } }, "max_tokens is too large"],
      [{ json: { error: "model 'nope' not found" } }, "model 'nope' not found"],
      [{ json: { detail: "Not authenticated" } }, "Not authenticated"],
      [{ text: "upstream overloaded" }, "upstream overloaded"],
    ];
    for (const [body, message] of bodies) {
      server.replies.push({ status: 400, ...body });
      const error = await rejectsWith(provider().complete(ask("x"), { model: "small-model" }), "http", "HTTP 400");
      assert.equal(error.providerMessage, message);
    }
  });

  test("a retryable status is retried, honouring retry-after-ms and x-should-retry", async () => {
    server.replies.push({ status: 503, json: { error: { message: "busy" } }, headers: { "retry-after-ms": "1" } });
    server.replies.push({ json: completion({ content: "second try" }) });
    const result = await provider({ maxRetries: 1 }).complete(ask("x"), { model: "small-model" });
    valid(result);
    assert.deepEqual(result.content, { type: "text", text: "second try" });
    assert.equal(server.received.length, 2);
    server.replies.push({ status: 500, json: { error: { message: "bad prompt" } }, headers: { "x-should-retry": "false" } });
    await rejectsWith(provider({ maxRetries: 1 }).complete(ask("x"), { model: "small-model" }), "http", "bad prompt");
    assert.equal(server.received.length, 3, "x-should-retry: false is obeyed");
  });

  test("a server that never answers is cut by the provider's timeout", async () => {
    server.replies.push("hang");
    await rejectsWith(
      provider({ timeoutMs: 200 }).complete(ask("x"), { model: "small-model" }),
      "timeout",
      "did not answer within 200 ms",
      'model "small-model"',
    );
  });

  test("an AbortSignal cancels a request in flight, and an aborted one is never sent", async () => {
    server.replies.push("hang");
    const controller = new AbortController();
    const pending = provider().complete(ask("x"), { model: "small-model", signal: controller.signal });
    await server.nextRequest();
    controller.abort();
    await rejectsWith(pending, "aborted", "cancelled");
    await rejectsWith(
      provider().complete(ask("x"), { model: "small-model", signal: AbortSignal.abort() }),
      "aborted",
      "before it was sent",
    );
    assert.equal(server.received.length, 1);
  });

  // The SDK sleeps through a retry wait and only then looks at the signal; the provider must not.
  // The guard turns a regression into a failure rather than a 30 s wait.
  test("an abort is not held up by a pending retry (retry-after 30 s)", { timeout: 10_000 }, async () => {
    server.replies.push({ status: 503, json: { error: { message: "busy" } }, headers: { "retry-after-ms": "30000" } });
    const controller = new AbortController();
    const pending = provider({ maxRetries: 1 }).complete(ask("x"), { model: "small-model", signal: controller.signal });
    await server.nextRequest();
    // Give the client the moment it needs to read the 503 and start waiting; either way it must end "aborted".
    await new Promise((resolve) => setTimeout(resolve, 50));
    controller.abort();
    await rejectsWith(pending, "aborted");
    assert.equal(server.received.length, 1);
  });

  test("connection refused is a network error naming the cause", async () => {
    const port = await closedPort();
    const p = openAICompatibleProvider({ baseURL: `http://127.0.0.1:${port}/v1`, models: "m", maxRetries: 0 });
    await rejectsWith(
      p.complete(ask("x"), { model: "m" }),
      "network",
      "connection refused (ECONNREFUSED)",
      `(model "m" at http://127.0.0.1:${port}/v1)`,
    );
  });

  test("base URLs that could only fail are config errors that do not echo credentials", () => {
    for (const [baseURL, text] of [
      ["http://user:s3cret@127.0.0.1:1/v1", "must not hold credentials"],
      ["http://127.0.0.1:1/v1?key=s3cret", "query string"],
      ["ftp://host/v1", "http:// or https://"],
    ]) {
      assert.throws(
        () => openAICompatibleProvider({ baseURL: baseURL!, models: "m" }),
        (e: unknown) => e instanceof ProviderError && e.kind === "config" && e.message.includes(text!) && !e.message.includes("s3cret"),
      );
    }
  });

  test("malformed tool arguments and unusable answers are bad_response errors", async () => {
    const call = (args: string) => ({ tool_calls: [{ id: "c1", type: "function", function: { name: "book_flight", arguments: args } }] });
    server.replies.push({ json: completion(call('{"from": "CDG",'), "tool_calls") });
    await rejectsWith(
      provider().complete(ask("x"), { model: "small-model" }),
      "bad_response",
      'malformed JSON arguments for tool "book_flight"',
      '{"from": "CDG",',
    );
    server.replies.push({ json: completion(call("[1,2]"), "tool_calls") });
    await rejectsWith(provider().complete(ask("x"), { model: "small-model" }), "bad_response", "not a JSON object");
    server.replies.push({ json: { object: "chat.completion", choices: [] } });
    await rejectsWith(provider().complete(ask("x"), { model: "small-model" }), "bad_response", "no choices");
    server.replies.push({ text: "<html>proxy login</html>" });
    await rejectsWith(provider().complete(ask("x"), { model: "small-model" }), "bad_response", "no choices");
    server.replies.push({ json: { error: { message: "quota exceeded" } } });
    await rejectsWith(provider().complete(ask("x"), { model: "small-model" }), "bad_response", "answered with an error: quota exceeded");
    server.replies.push({ json: completion({ content: "x", tool_calls: "none" }) });
    valid(await provider().complete(ask("x"), { model: "small-model" }));
  });
});

describe("providerFromEnv", () => {
  let server: ChatServer;
  before(async () => (server = await startChatServer()));
  after(() => server.close());
  afterEach(() => (server.received.length = 0));

  const configError = (env: Record<string, string>, text: string) =>
    assert.throws(
      () => providerFromEnv(env),
      (e: unknown) => e instanceof ProviderError && e.kind === "config" && e.message.includes(text),
    );

  test("no model configured: undefined, even with OPENAI_* keys other tools use", () => {
    assert.equal(providerFromEnv({}), undefined);
    assert.equal(providerFromEnv({ OPENAI_API_KEY: "sk-x", OPENAI_BASE_URL: "http://127.0.0.1:1/v1", ELICIT_MODEL: "  " }), undefined);
  });

  test("half a configuration is a clear error", () => {
    configError({ ELICIT_MODEL: "llama3" }, "ELICIT_MODEL is set but there is neither a base URL");
    configError({ OPENAI_MODEL: "gpt-4o" }, "OPENAI_MODEL is set but there is neither");
    configError({ ELICIT_MODEL_BASE_URL: "http://127.0.0.1:8080/v1" }, "ELICIT_MODEL_BASE_URL is set but no model is");
    configError({ ELICIT_MODEL: "m", ELICIT_MODEL_BASE_URL: "localhost:8080" }, "must start with http:// or https://");
    configError({ ELICIT_MODEL: "m", ELICIT_MODEL_BASE_URL: "127.0.0.1:8080/v1" }, "is not a URL");
    configError(
      { ELICIT_MODEL: "m", ELICIT_MODEL_API_KEY: "k", ELICIT_MODEL_TIMEOUT_MS: "soon" },
      "ELICIT_MODEL_TIMEOUT_MS must be a whole number",
    );
    configError({ ELICIT_MODEL: "[oops", ELICIT_MODEL_API_KEY: "k" }, "not valid JSON");
    configError(
      { ELICIT_MODEL: "m", ELICIT_MODEL_API_KEY: "k", ELICIT_MODEL_MAX_TOKENS_FIELD: "tokens" },
      "must be max_tokens or max_completion_tokens",
    );
  });

  test("a local server: base URL and a model list, no key, no Authorization header", async () => {
    const p = providerFromEnv({
      ELICIT_MODEL: "qwen3:4b, llama3.1:8b",
      ELICIT_MODEL_BASE_URL: server.baseURL,
      ELICIT_MODEL_MAX_RETRIES: "0",
    });
    assert.ok(p);
    assert.deepEqual(p.models, ["qwen3:4b", "llama3.1:8b"]);
    assert.equal(p.chooseModel({ hints: [{ name: "llama" }] }), "llama3.1:8b");
    valid(await p.complete(ask("hi"), { model: "qwen3:4b" }));
    assert.equal(server.received[0]?.headers.authorization, undefined);
    assert.equal(server.received[0]?.body.max_tokens, 100);
  });

  test("ELICIT_* wins over OPENAI_*; OPENAI_* alone works; JSON model specs carry scores", async () => {
    const p = providerFromEnv({
      ELICIT_MODEL: '[{"name":"cheap","cost":0},{"name":"smart","cost":1,"intelligence":1}]',
      OPENAI_MODEL: "ignored",
      OPENAI_BASE_URL: server.baseURL,
      OPENAI_API_KEY: "sk-openai",
      ELICIT_MODEL_API_KEY: "sk-elicit",
    });
    assert.ok(p);
    assert.deepEqual(p.models, ["cheap", "smart"]);
    assert.equal(p.chooseModel({ intelligencePriority: 1 }), "smart");
    valid(await p.complete(ask("hi"), { model: "smart" }));
    assert.equal(server.received[0]?.headers.authorization, "Bearer sk-elicit");
    const fallback = providerFromEnv({ OPENAI_MODEL: "gpt-4o-mini", OPENAI_API_KEY: "sk-x" });
    assert.deepEqual(fallback?.models, ["gpt-4o-mini"]);
  });
});
