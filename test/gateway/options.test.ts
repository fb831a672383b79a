// `elicit gateway`'s options and its pieces on their own: who answers what, a question a host's revision
// cannot express, the rounds a 2026-07-28 host is held in, and the refusals that keep secrets out of a
// host's configuration file.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { ProtocolError } from "@modelcontextprotocol/server";
import { desktopNotifier } from "../../src/cli/gateway/notify.js";
import { questionLog, REDACTED } from "../../src/cli/gateway/question-log.js";
import { HeldCalls } from "../../src/cli/gateway/held-calls.js";
import { HostLinks } from "../../src/cli/gateway/links.js";
import { forHost, parseRouting, routeQuestions } from "../../src/cli/gateway/route.js";
import { within } from "../helpers/deferred.js";
import { whenFileHas } from "../helpers/files.js";
import { runCli } from "../helpers/cli.js";

const form = (schema: Record<string, unknown>) => ({
  method: "elicitation/create",
  params: { mode: "form", message: "Pick", requestedSchema: { type: "object", properties: schema } },
});

describe("who answers", () => {
  test("--ui and --policy are checked, naming the flag and what it takes", () => {
    assert.deepEqual(parseRouting("host", "url=web, sampling=terminal"), { ui: "host", policy: { url: "web", sampling: "terminal" } });
    assert.throws(() => parseRouting("browser", undefined), /--ui takes host, app, web, terminal; got "browser"/);
    assert.throws(() => parseRouting("host", "payment=web"), /--policy takes KIND=WHO pairs.*got "payment=web"/);
    assert.throws(() => parseRouting("host", "url"), /--policy takes KIND=WHO pairs/);
  });

  test("a question goes to the host only where it declared that kind and the routing lets it", async () => {
    const links = new HostLinks();
    const asked: string[] = [];
    const link = {
      protocol: "2025-11-25" as const,
      capabilities: { elicitation: { form: {} } },
      ask: async (q: { method: string }) => (asked.push(q.method), { action: "decline" }),
      notify: async () => {},
    };
    const signal = new AbortController().signal;
    const route = routeQuestions(links, parseRouting("host", "sampling=web"));
    const url = { method: "elicitation/create", params: { mode: "url", message: "Pay", url: "https://example.com", elicitationId: "e1" } };
    await links.within(link, async () => {
      assert.deepEqual(await route(form({ a: { type: "string" } }), signal), { action: "decline" });
      assert.equal(route(url, signal), undefined, "URL mode was not declared: the gateway answers it");
      assert.equal(route({ method: "sampling/createMessage", params: {} }, signal), undefined);
    });
    assert.equal(route(form({ a: { type: "string" } }), signal), undefined, "no host request open: the gateway answers");
    assert.deepEqual(asked, ["elicitation/create"]);
    const never = routeQuestions(links, parseRouting("web", undefined));
    await links.within(link, async () => assert.equal(never(form({ a: { type: "string" } }), signal), undefined));
  });

  test("a 2025-06-18 host gets titled options as enumNames, and a multi-select stays with the gateway", () => {
    const titled = forHost(form({ seat: { type: "string", oneOf: [{ const: "w", title: "Window" }] } }), "2025-06-18");
    assert.deepEqual(titled?.params.requestedSchema, {
      type: "object",
      properties: { seat: { type: "string", enum: ["w"], enumNames: ["Window"] } },
    });
    assert.equal(titled?.params.mode, undefined, "2025-06-18 has no mode");
    const multi = form({ meals: { type: "array", items: { type: "string", enum: ["veg"] } } });
    assert.equal(forHost(multi, "2025-06-18"), undefined);
    assert.equal(forHost(multi, "2025-11-25"), multi);
  });
});

describe("a 2026-07-28 host's held call", () => {
  test("a round asks the questions, the next hands the answers on and ends with the result; an earlier round's requestState is -32602", async () => {
    const held = new HeldCalls();
    const call = held.start(async (c) => {
      const answer = await c.ask(form({ a: { type: "string" } }), c.abort.signal);
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    });
    const signal = new AbortController().signal;
    const first = (await call.round(signal)) as { resultType?: string; inputRequests?: Record<string, unknown>; requestState?: string };
    assert.equal(first.resultType, "input_required");
    assert.deepEqual(Object.keys(first.inputRequests!), ["q1"]);
    assert.equal(held.resume(first.requestState), call);
    // No answer for q1: asked again.
    call.answer({});
    const again = (await call.round(signal)) as { inputRequests?: Record<string, unknown>; requestState?: string };
    assert.deepEqual(Object.keys(again.inputRequests!), ["q1"]);
    assert.notEqual(again.requestState, first.requestState, "each round has its own state");
    assert.equal(held.resume(again.requestState), call);
    call.answer({ q1: { action: "accept", content: { a: "x" } } });
    assert.deepEqual(await call.round(signal), { content: [{ type: "text", text: '{"action":"accept","content":{"a":"x"}}' }] });
    // A 2026-07-28 server's own key is kept; a clash with one still pending gets one of the gateway's.
    const keyed = held.start(async (c) => {
      const question = { ...form({ a: { type: "string" } }), id: "user_name" };
      await Promise.all([c.ask(question, c.abort.signal), c.ask(question, c.abort.signal)]);
      return {};
    });
    const keys = (await keyed.round(signal)) as { inputRequests?: Record<string, unknown> };
    assert.deepEqual(Object.keys(keys.inputRequests!), ["user_name", "q1"]);
    keyed.end("done");
    assert.throws(
      () => held.resume(first.requestState),
      (error: unknown) => error instanceof ProtocolError && error.code === -32602 && /holds no call for it/.test(error.message),
    );
  });

  test("one invalid answer in a round: -32602 naming it, none of the round taken, every question still open", async () => {
    const held = new HeldCalls();
    const got: unknown[] = [];
    const call = held.start(async (c) => {
      const a = c.ask({ ...form({ a: { type: "string", maxLength: 3 } }), id: "first" }, c.abort.signal);
      const b = c.ask({ ...form({ b: { type: "boolean" } }), id: "second" }, c.abort.signal);
      got.push(...(await Promise.all([a, b])));
      return {};
    });
    const signal = new AbortController().signal;
    const round = (await call.round(signal)) as { inputRequests?: Record<string, unknown>; requestState?: string };
    assert.deepEqual(Object.keys(round.inputRequests!).sort(), ["first", "second"]);
    assert.throws(
      () => call.answer({ first: { action: "accept", content: { a: "toolong" } }, second: { action: "accept", content: { b: true } } }),
      (error: unknown) =>
        error instanceof ProtocolError &&
        error.code === -32602 &&
        /inputResponses\["first"\]: field "a": .* \[maxLength\]/.test(error.message) &&
        !/second/.test(error.message),
    );
    assert.equal(held.resume(round.requestState), call, "the round's requestState still names the call");
    call.answer({ first: { action: "accept", content: { a: "ok" } }, second: { action: "decline", content: { b: 1 } } });
    assert.deepEqual(await call.round(signal), {});
    assert.deepEqual(got, [{ action: "accept", content: { a: "ok" } }, { action: "decline" }], "a decline goes on without content");
  });

  test("a host that does not come back, or cancels, ends the call to the server", async () => {
    const held = new HeldCalls(50);
    const idle = held.start((c) => c.ask(form({ a: { type: "string" } }), c.abort.signal));
    await idle.round(new AbortController().signal);
    await within(new Promise((resolve) => idle.abort.signal.addEventListener("abort", resolve)), 10_000, "the idle call was not ended");
    assert.match(String(idle.abort.signal.reason), /did not answer the gateway's questions in time/);

    const cancelled = held.start(
      (c) => new Promise((_, reject) => c.abort.signal.addEventListener("abort", () => reject(c.abort.signal.reason))),
    );
    const host = new AbortController();
    const round = cancelled.round(host.signal);
    host.abort("no longer needed");
    await assert.rejects(round);
    assert.equal(cancelled.abort.signal.reason, "no longer needed", "the host's reason goes on to the server");
  });
});

describe("--log", () => {
  test("a form's answer is written down with sensitive fields redacted, a link without its query", async () => {
    const dir = mkdtempSync(join(tmpdir(), "elicit-gateway-log-"));
    try {
      const file = join(dir, "log.jsonl");
      const log = questionLog(file);
      const question = form({ user: { type: "string", title: "User" }, password: { type: "string", title: "Password" } });
      log.routed(question, Promise.resolve({ action: "accept", content: { user: "ana", password: "hunter2" } }));
      const url = {
        method: "elicitation/create",
        params: { mode: "url", message: "Pay", url: "https://pay.example.com/p?token=abc#x", elicitationId: "e" },
      };
      log.routed(url, Promise.resolve({ action: "accept" }));
      await new Promise((resolve) => setImmediate(resolve));
      const entries = readFileSync(file, "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      assert.deepEqual(entries[0]!.content, { user: "ana", password: REDACTED });
      assert.equal(entries[1]!.url, "https://pay.example.com/p");
      assert.doesNotMatch(readFileSync(file, "utf8"), /hunter2|token=abc/);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      log.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("elicit gateway refuses", () => {
  test("--print-config with a secret, an unknown host, --ui terminal on stdio, a --log it cannot write", async () => {
    const token = await runCli(["gateway", "--print-config", "cursor", "--token", "s3cret-token", "--", "elicit", "serve", "travel"]);
    assert.equal(token.code, 2);
    assert.match(token.stderr, /--print-config writes no secrets into a host's configuration/);
    assert.doesNotMatch(token.stdout + token.stderr, /s3cret-token/);
    const host = await runCli(["gateway", "--print-config", "emacs", "--", "elicit", "serve", "travel"]);
    assert.equal(host.code, 2);
    assert.match(
      host.stderr,
      /--print-config takes claude-desktop, claude-code, vscode, cursor, codex, gemini-cli, goose, zed, opencode, windsurf; got "emacs"/,
    );
    const terminal = await runCli(["gateway", "--ui", "terminal", "--", "elicit", "serve", "travel"]);
    assert.equal(terminal.code, 2);
    assert.match(terminal.stderr, /--ui terminal \(or a terminal in --policy\) needs --http/);
    const log = await runCli(["gateway", "--log", "/proc/no/such/dir/log.jsonl", "--", "elicit", "serve", "travel"]);
    assert.equal(log.code, 2);
    assert.match(log.stderr, /--log "\/proc\/no\/such\/dir\/log\.jsonl": cannot write there \(ENOENT\)/);
  });
});

describe("desktop notifications", () => {
  const RECORD_NOTIFY = fileURLToPath(new URL("../fixtures/record-notify.mjs", import.meta.url));

  test("a hostile server name is shown inert and without markup; a URL's wait is not told; no notifier, no notification", async () => {
    const dir = mkdtempSync(join(tmpdir(), "elicit-notify-"));
    try {
      const file = join(dir, "notified.txt");
      const env = { ...process.env, ELICIT_NOTIFY_SEND: RECORD_NOTIFY, RECORD_NOTIFY_FILE: file };
      const notify = desktopNotifier(env, "linux")!;
      notify("url-wait-server", "url-wait");
      notify("<b>Evil</b> & \u001b[31mRed\u001b[0m\u202Eoh", "form");
      // The notifier is a process of its own: its line is waited for.
      const text = await whenFileHas(file, (t) => (t.endsWith("\n") ? t : undefined), "no notification", 60_000);
      const notes = text.trim().split("\n");
      const [note] = notes.map((line) => JSON.parse(line) as string[]);
      assert.deepEqual(note, [
        "--app-name=elicit",
        "--",
        "elicit gateway",
        "bEvil/b  Redoh waits for you: a form to fill in, in your browser.",
      ]);
      assert.equal(desktopNotifier({ PATH: "", ELICIT_NOTIFY_SEND: join(dir, "missing") }, "linux"), undefined);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
