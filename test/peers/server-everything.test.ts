// A real peer: the built `elicit call` against the official `@modelcontextprotocol/server-everything`
// (SDK v1, 2025-era protocol), over stdio and over Streamable HTTP. Every assertion is about what that
// server received (it echoes it in its tool result), the exit code, stdout as JSON, and the stderr
// notices of the scripted UI: form defaults, decline and cancel, both URL paths (the -32042 error path
// without any completion notification, timed), URL consent warnings, sampling, roots, and
// case-insensitive `match`.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { runCli, type RunResult } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { freePort } from "../helpers/processes.js";
import { killOnExit } from "../helpers/cleanup.js";

const EVERYTHING = fileURLToPath(new URL("../../node_modules/@modelcontextprotocol/server-everything/dist/index.js", import.meta.url));

// Sampling must be answered by the answers file, not by a model from the environment: the bin inherits ours.
for (const name of Object.keys(process.env)) if (/^(ELICIT_MODEL|OPENAI_)/.test(name)) delete process.env[name];

const { dir, file } = scratchFiles("elicit-peer-");

/** server-everything over Streamable HTTP on a free port; resolves once it listens. */
async function startHttpPeer(): Promise<{ url: string; child: ChildProcess }> {
  const port = await freePort();
  const child = killOnExit(
    spawn(process.execPath, [EVERYTHING, "streamableHttp"], {
      env: { ...process.env, PORT: String(port) },
      stdio: ["ignore", "ignore", "pipe"],
    }),
  );
  return new Promise((resolve, reject) => {
    let stderr = "";
    const timer = setTimeout(() => reject(new Error(`server-everything did not listen within 20 s: ${stderr}`)), 20_000);
    child.stderr!.on("data", (d) => {
      stderr += d;
      if (/listening on port \d+/.test(stderr)) {
        clearTimeout(timer);
        resolve({ url: `http://127.0.0.1:${port}/mcp`, child });
      }
    });
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`server-everything exited ${code}: ${stderr}`));
    });
  });
}

/** The tool result printed on stdout (must be JSON) and its text blocks. */
function resultOf(r: RunResult): { result: { isError?: boolean; content: { type: string; text: string }[] }; texts: string[] } {
  let result;
  try {
    result = JSON.parse(r.stdout);
  } catch (error) {
    assert.fail(`stdout is not JSON (${(error as Error).message}):\n${r.stdout}\nstderr:\n${r.stderr}`);
  }
  assert.ok(Array.isArray(result.content), r.stdout);
  return { result, texts: result.content.map((c: { text?: string }) => c.text ?? "") };
}

/** The elicitation result server-everything received, from its "Raw result: {...}" block. */
function received(texts: string[]): { action: string; content?: Record<string, unknown> } {
  const raw = texts.find((t) => t.startsWith("\nRaw result: "));
  assert.ok(raw, `no "Raw result" block in ${JSON.stringify(texts)}`);
  return JSON.parse(raw.slice("\nRaw result: ".length));
}

/** Every default of trigger-elicitation-request's form (8 of its 13 fields have one). */
const FORM_DEFAULTS = {
  firstLine: "It was a dark and stormy night.",
  integer: 42,
  number: 3.14,
  untitledSingleSelectEnum: "Monica",
  untitledMultipleSelectEnum: ["Guitar"],
  titledSingleSelectEnum: "hero-1",
  titledMultipleSelectEnum: ["fish-1"],
  legacyTitledEnum: "pet-1",
};
const FORM_MESSAGE = "Please provide inputs for the following fields:";
const entryLine = (index: number, match: string | undefined, message: string, answer: string) =>
  `elicit: answers entry [${index}] (${match === undefined ? "no match: any message" : `match ${JSON.stringify(match)}`}) answered ${JSON.stringify(message)}: ${answer}.`;

const ANSWERS = {
  partial: file("partial.yaml", "- action: accept\n  content: { name: Ana Garcia, check: true }\n"),
  empty: file("empty.yaml", "- action: accept\n  content: {}\n"),
  decline: file("decline.json", '[{ "action": "decline" }]'),
  cancel: file("cancel.yaml", "- action: cancel\n"),
  // Every field answered, matched in another case than the server's message.
  upper: file(
    "upper.yaml",
    `- match: "PLEASE PROVIDE inputs"
  action: accept
  content:
    name: Zoë
    check: false
    firstLine: Call me Ishmael.
    email: zoe@example.com
    homepage: https://zoe.example/
    birthdate: "1990-02-03"
    integer: 7
    number: 0.5
    untitledSingleSelectEnum: Joey
    untitledMultipleSelectEnum: [Piano, Drums]
    titledSingleSelectEnum: hero-3
    titledMultipleSelectEnum: [fish-2, fish-3]
    legacyTitledEnum: pet-4
`,
  ),
  neverMatches: file(
    "no-match.yaml",
    '- match: "^please provide inputs for the following fields:$X"\n  action: accept\n  content: { name: x }\n',
  ),
  // The -32042 prerequisite (modelcontextprotocol.io), then the request path of the retried call.
  urlFast: file(
    "url-accept.yaml",
    '- match: "satisfy the prerequisite"\n  action: accept\n  retryAfter: 500ms\n- match: "open the link"\n  action: accept\n',
  ),
  urlDefault: file(
    "url-accept-default.yaml",
    '- match: "satisfy the prerequisite"\n  action: accept\n- match: "open the link"\n  action: accept\n',
  ),
  urlAny: file("url-any.yaml", "- action: accept\n"),
  research: file("research.yaml", "- match: interpretations\n  action: accept\n  content: { interpretation: programming }\n"),
  sample: file("sample.yaml", '- match: "capital of france"\n  sample: { text: "Paris, said the scripted person." }\n'),
};

// The tests of a group share nothing they change (each call is its own elicit process, and over stdio its
// own server, whose exit the SDK waits up to 2 s for after closing its stdin): three at a time.
const PARALLEL = { concurrency: 3 };

const URL_MESSAGE = "Please open the link to complete this action.";
const PREREQUISITE = "Open this link to satisfy the prerequisite, then retry the request.";

const WARNINGS = [
  { what: "a punycode/IDN host", url: "https://xn--pypal-4ve.com/", host: "xn--pypal-4ve.com", says: /internationali[sz]ed|punycode/i },
  { what: "an IP literal", url: "https://192.168.1.20/login", host: "192.168.1.20", says: /IPv4|IP address/i },
  { what: "a user@host address", url: "https://user@example.com/account", host: "example.com", says: /user.*@/i },
  { what: "an http: address", url: "http://example.com/pay", host: "example.com", says: /http:|not encrypted/i },
] as const;

for (const transport of ["stdio", "http"] as const) {
  describe(`elicit call against server-everything over ${transport}`, () => {
    let server: string[] = [];
    let http: { url: string; child: ChildProcess } | undefined;
    before(async () => {
      if (transport === "stdio") server = ["--", process.execPath, EVERYTHING, "stdio"];
      else {
        http = await startHttpPeer();
        server = ["--url", http.url];
      }
    });
    after(() => void http?.child.kill("SIGTERM"));
    const call = (tool: string, args: object | undefined, ...rest: string[]) =>
      runCli(["call", tool, ...(args ? ["--args", JSON.stringify(args)] : []), ...rest, ...server], { timeoutMs: 30_000 });

    describe("form elicitation (trigger-elicitation-request)", PARALLEL, () => {
      test("partial content: every default of the form is applied and sent", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.partial);
        assert.equal(r.code, 0, r.stderr);
        const { texts } = resultOf(r);
        assert.deepEqual(received(texts), { action: "accept", content: { name: "Ana Garcia", check: true, ...FORM_DEFAULTS } });
        assert.match(texts[1]!, /- Favorite Integer: 42\n- Favorite Number: 3\.14/);
        assert.ok(r.stderr.includes(entryLine(0, undefined, FORM_MESSAGE, "accept")), r.stderr);
      });

      test("content: {} misses the required name: never sent, the server gets cancel, stderr says why", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.empty);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(received(resultOf(r).texts), { action: "cancel" });
        assert.match(r.stderr, /Not sent to .*everything.*: the answer is invalid \(String is required\); answered cancel\./);
      });

      test("decline reaches the server as decline", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.decline);
        assert.equal(r.code, 0, r.stderr);
        const { texts } = resultOf(r);
        assert.deepEqual(received(texts), { action: "decline" });
        assert.match(texts[0]!, /User declined/);
        assert.ok(r.stderr.includes(entryLine(0, undefined, FORM_MESSAGE, "decline")), r.stderr);
      });

      test("cancel reaches the server as cancel", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.cancel);
        assert.equal(r.code, 0, r.stderr);
        const { texts } = resultOf(r);
        assert.deepEqual(received(texts), { action: "cancel" });
        assert.match(texts[0]!, /User cancelled the elicitation dialog/);
        assert.ok(r.stderr.includes(entryLine(0, undefined, FORM_MESSAGE, "cancel")), r.stderr);
      });

      test("match is case-insensitive: an upper-case match answers, with every field as given", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.upper);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(received(resultOf(r).texts), {
          action: "accept",
          content: {
            name: "Zoë",
            check: false,
            firstLine: "Call me Ishmael.",
            email: "zoe@example.com",
            homepage: "https://zoe.example/",
            birthdate: "1990-02-03",
            integer: 7,
            number: 0.5,
            untitledSingleSelectEnum: "Joey",
            untitledMultipleSelectEnum: ["Piano", "Drums"],
            titledSingleSelectEnum: "hero-3",
            titledMultipleSelectEnum: ["fish-2", "fish-3"],
            legacyTitledEnum: "pet-4",
          },
        });
        assert.ok(r.stderr.includes(entryLine(0, "PLEASE PROVIDE inputs", FORM_MESSAGE, "accept")), r.stderr);
      });

      test("a match that does not fit is not used: cancel, with the notice", async () => {
        const r = await call("trigger-elicitation-request", undefined, "--answers", ANSWERS.neverMatches);
        assert.equal(r.code, 0, r.stderr);
        assert.deepEqual(received(resultOf(r).texts), { action: "cancel" });
        assert.match(r.stderr, /elicit: no scripted answer matches "Please provide inputs for the following fields:"; answering cancel\./);
      });
    });

    describe("URL elicitation (trigger-url-elicitation)", PARALLEL, () => {
      test("request path: elicitation/create mode url, consented from the answers file", async () => {
        const r = await call("trigger-url-elicitation", { url: "https://example.com/x" }, "--answers", ANSWERS.urlAny);
        assert.equal(r.code, 0, r.stderr);
        const { texts } = resultOf(r);
        assert.deepEqual(received(texts), { action: "accept" });
        assert.match(
          texts[0]!,
          /User completed the URL elicitation flow\.\nElicitation ID: [0-9a-f-]{36}\nURL: https:\/\/example\.com\/x$/,
        );
        assert.ok(r.stderr.includes(entryLine(0, undefined, URL_MESSAGE, "accept")), r.stderr);
        assert.doesNotMatch(r.stderr, /warning about|retrying/);
      });

      for (const { name, answers, waitMs, says } of [
        { name: "retryAfter: 500ms", answers: ANSWERS.urlFast, waitMs: 500, says: "500 ms" },
        { name: "the default wait (3 s)", answers: ANSWERS.urlDefault, waitMs: 3000, says: "3 s" },
      ]) {
        test(`-32042 error path, no completion notification, ${name}: retried after the wait`, async (t) => {
          const started = performance.now();
          const r = await call("trigger-url-elicitation", { url: "https://example.com/x", errorPath: true }, "--answers", answers);
          const ms = Math.round(performance.now() - started);
          t.diagnostic(`${transport}, ${name}: elicit call took ${ms} ms`);
          assert.equal(r.code, 0, r.stderr);
          const { result, texts } = resultOf(r);
          assert.notEqual(result.isError, true);
          // The retried call went down the request path and the second entry consented.
          assert.deepEqual(received(texts), { action: "accept" });
          assert.match(texts[0]!, /User completed the URL elicitation flow\.[^]*URL: https:\/\/example\.com\/x$/);
          const lines = r.stderr.split("\n");
          const consent = lines.indexOf(entryLine(0, "satisfy the prerequisite", PREREQUISITE, "accept"));
          const retry = lines.indexOf(
            `elicit: retrying the call in ${says} unless modelcontextprotocol.io reports the flow complete first.`,
          );
          const second = lines.indexOf(entryLine(1, "open the link", URL_MESSAGE, "accept"));
          assert.ok(consent >= 0 && retry > consent && second > retry, r.stderr);
          // No notification comes from this server: the call waited out the whole retryAfter. (How much longer it
          // took is the machine's speed, not the client's behaviour: a hang is the per-test timeout's to catch.)
          assert.ok(ms >= waitMs, `took ${ms} ms, less than the ${waitMs} ms wait`);
        });
      }

      for (const { what, url, host, says } of WARNINGS) {
        test(`consent to ${what} logs the analysis warning on stderr`, async () => {
          const r = await call("trigger-url-elicitation", { url }, "--answers", ANSWERS.urlAny);
          assert.equal(r.code, 0, r.stderr);
          assert.deepEqual(received(resultOf(r).texts), { action: "accept" });
          const lines = r.stderr.split("\n");
          const answered = lines.indexOf(entryLine(0, undefined, URL_MESSAGE, "accept"));
          const warnings = lines.filter((l) => l.startsWith(`elicit: warning about ${host}: `));
          assert.ok(answered >= 0, r.stderr);
          assert.ok(
            warnings.some((l) => says.test(l)),
            r.stderr,
          );
          // Logged before the consent is given, as a person would read them before answering.
          assert.ok(lines.indexOf(warnings.at(-1)!) < answered, r.stderr);
        });
      }

      test("a plain https name gets no warning (the warnings above are about the address)", async () => {
        const r = await call("trigger-url-elicitation", { url: "https://www.example.com/ok" }, "--answers", ANSWERS.urlAny);
        assert.equal(r.code, 0, r.stderr);
        assert.doesNotMatch(r.stderr, /warning about/);
      });
    });

    test("sampling (trigger-sampling-request): the scripted text stands in for a model", async () => {
      const r = await call("trigger-sampling-request", { prompt: "Capital of France?" }, "--answers", ANSWERS.sample);
      assert.equal(r.code, 0, r.stderr);
      const { texts } = resultOf(r);
      assert.ok(texts[0]!.startsWith("LLM sampling result: \n"), texts[0]);
      const got = JSON.parse(texts[0]!.slice("LLM sampling result: \n".length));
      assert.deepEqual(got, {
        model: "typed-by-person",
        stopReason: "endTurn",
        role: "assistant",
        content: { type: "text", text: "Paris, said the scripted person." },
      });
      assert.match(
        r.stderr,
        /elicit: answers entry \[0\] \(match "capital of france"\) answered "You are a helpful test server\. Resource trigger-sampling-request context: Capita[^"]*": approve\./,
      );
    });

    test("roots (get-roots-list): --root DIR is listed as a file:// URI", async () => {
      const root = join(dir, `root ${transport}`);
      mkdirSync(root, { recursive: true });
      const r = await call("get-roots-list", undefined, "--root", root);
      assert.equal(r.code, 0, r.stderr);
      const { texts } = resultOf(r);
      assert.match(texts[0]!, /^Current MCP Roots \(1 total\):/);
      assert.ok(texts[0]!.includes(`1. root ${transport}\n   URI: ${pathToFileURL(root).href}\n`), texts[0]);
    });

    test("a tool that requires a task (simulate-research-query): its status is shown, its question answered, its result printed", async () => {
      const r = await call("simulate-research-query", { topic: "python", ambiguous: true }, "--answers", ANSWERS.research);
      assert.equal(r.code, 0, r.stderr);
      const { texts } = resultOf(r);
      assert.match(texts[0]!, /^# Research Report: python \(programming\)/);
      assert.match(r.stderr, /elicit: The task is running on the server: Gathering sources\.\.\. \(task \S+\)/);
      // input_required lasts as long as the answer takes: a poll may or may not see it.
      assert.match(r.stderr, /answers entry \[0\] \(match "interpretations"\) answered "The research query \\"python\\" could have/);
      assert.equal(r.stderr.match(/elicit: The task is finished(?:: [^\n]*)? \(task \S+\)$/gm)?.length, 1, r.stderr);
    });
  });
}
