// Pass-through fidelity of `elicit gateway`: one recorded session with every kind of message, run
// (a) host → server and (b) host → gateway → server over stdio, is the same message for message on the
// host's wire and on the server's wire once the differences the gateway is meant to make are
// normalised away. Those differences are listed once, in DIFFERENCES below, and in docs/cli/gateway-wire.md
// (a test checks the two lists agree).
import assert from "node:assert/strict";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN } from "../helpers/cli.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { deferred, within } from "../helpers/deferred.js";
import { tap, type WireMessage } from "../helpers/mcp.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/fidelity-server.ts", import.meta.url));
const DOC = fileURLToPath(new URL("../../docs/cli/gateway-wire.md", import.meta.url));
const REVISIONS = ["2025-11-25", "2026-07-28"] as const;
type Revision = (typeof REVISIONS)[number];
type Mode = "direct" | "gateway";
/** One message as its side recorded it: "host" (the host's transport) or "server" (the server's). */
type Msg = { dir: "in" | "out"; message: Record<string, any> };
type Side = "host" | "server";
/** What a normaliser sees: one side's messages of one run, and which run it was. */
type Normaliser = (messages: Msg[], side: Side, mode: Mode, revision: Revision) => Msg[];

const STEP_MS = 20_000;
const SESSION_MS = 90_000;

// ---------------------------------------------------------------------------------------------
// The differences. Each id is a bullet of docs/cli/gateway-wire.md ("- **id**: ...").

const isRequest = (m: Record<string, any>) => typeof m.method === "string" && m.id !== undefined;
const isResponse = (m: Record<string, any>) => m.method === undefined && m.id !== undefined;
const ENVELOPE = ["io.modelcontextprotocol/clientInfo", "io.modelcontextprotocol/clientCapabilities"];
/** The result members the host-facing SDK server writes itself on 2026-07-28, after the result's own. */
const RESULT_ENVELOPE = ["resultType", "ttlMs", "cacheScope"];

/** Applies `edit` to a copy of each message (`edit` may change the copy in place, or return false to drop it). */
const each =
  (edit: (m: Record<string, any>, msg: Msg, side: Side, mode: Mode, revision: Revision) => void | false): Normaliser =>
  (messages, side, mode, revision) =>
    messages.flatMap((msg) => {
      const message = structuredClone(msg.message);
      return edit(message, msg, side, mode, revision) === false ? [] : [{ dir: msg.dir, message }];
    });

/** Removes `_meta[key]` for each key, and `_meta` itself once empty. */
function dropMeta(holder: Record<string, any> | undefined, keys: string[]): void {
  if (!holder?._meta) return;
  for (const key of keys) delete holder._meta[key];
  if (Object.keys(holder._meta).length === 0) delete holder._meta;
}

export const DIFFERENCES: { id: string; normalise: Normaliser }[] = [
  {
    // The gateway puts a token of its own on the requests it sends (every tools/call has one, to keep its
    // clock alive), and maps the server's progress back to the host's token.
    id: "progress-tokens",
    normalise: each((m) => {
      if (isRequest(m)) dropMeta(m.params, ["progressToken"]);
      if (m.method === "notifications/progress") m.params.progressToken = "<token>";
    }),
  },
  {
    // The server is talked to by the gateway: its name and capabilities (elicitation, sampling, roots, the
    // tasks extension), in initialize (2025) and in every request's envelope (2026-07-28).
    id: "client-identity",
    normalise: each((m, msg, side) => {
      if (side !== "server" || msg.dir !== "in") return;
      if (m.method === "initialize") m.params.clientInfo = m.params.capabilities = "<client>";
      if (m.params?._meta) for (const key of ENVELOPE) if (key in m.params._meta) m.params._meta[key] = "<client>";
    }),
  },
  {
    // The gateway lists the tools once when it starts (the SDK keeps them for callTool's output checks).
    id: "startup-tools-list",
    normalise(messages, side, mode) {
      if (side !== "server" || mode !== "gateway") return messages;
      const first = messages.find((x) => x.dir === "in" && x.message.method === "tools/list");
      if (!first) return messages;
      return messages.filter((x) => x !== first && !(x.dir === "out" && isResponse(x.message) && x.message.id === first.message.id));
    },
  },
  {
    // ping is answered by the gateway (the SDK server it serves the host with answers it): it checks the
    // hop to the gateway, and does not reach the server.
    id: "ping",
    normalise(messages, side) {
      if (side !== "server") return messages;
      const pings = new Set(messages.filter((x) => x.dir === "in" && x.message.method === "ping").map((x) => x.message.id));
      return messages.filter((x) => !pings.has(x.message.id) || (x.message.method !== "ping" && !isResponse(x.message)));
    },
  },
  {
    // Members the host-facing SDK server writes itself come in its own order: the capabilities in the
    // initialize result, and resultType/ttlMs/cacheScope of a 2026-07-28 result. Values are the server's.
    id: "member-order",
    normalise: each((m, msg, side) => {
      if (side !== "host" || msg.dir !== "in" || !m.result) return;
      if (m.result.capabilities) m.result.capabilities = Object.fromEntries(Object.entries(m.result.capabilities).sort());
      for (const key of RESULT_ENVELOPE)
        if (key in m.result) {
          const value = m.result[key];
          delete m.result[key];
          m.result[key] = value;
        }
    }),
  },
  {
    // The gateway numbers its own requests to the server; the host's ids are its own. Last: after
    // the messages the others drop.
    id: "request-ids",
    normalise(messages) {
      const ids = { out: new Map<unknown, string>(), in: new Map<unknown, string>() };
      const name = (dir: "in" | "out", id: unknown) => {
        const map = ids[dir];
        if (!map.has(id)) map.set(id, `${dir === "out" ? "sent" : "received"}#${map.size + 1}`);
        return map.get(id)!;
      };
      return messages.map(({ dir, message }) => {
        const m = structuredClone(message);
        // A request gets the next name of its sender; a response the name of the request it answers.
        if (isRequest(m)) m.id = name(dir, m.id);
        else if (isResponse(m)) m.id = name(dir === "in" ? "out" : "in", m.id);
        if (m.method === "notifications/cancelled") m.params.requestId = name(dir, m.params.requestId);
        return { dir, message: m };
      });
    },
  },
];

// ---------------------------------------------------------------------------------------------
// The session.

interface Run {
  host: Msg[];
  server: Msg[];
  gatewayStderr: string;
}

const recorded = (wire: WireMessage[]): Msg[] => wire.map(({ dir, message }) => ({ dir, message }));

function clientFor(revision: Revision): Client {
  const options: Record<string, unknown> = { capabilities: {} };
  if (revision === "2026-07-28") options.versionNegotiation = { mode: { pin: "2026-07-28" } };
  else options.supportedProtocolVersions = ["2025-11-25"];
  return new Client({ name: "fidelity-host", version: "1.0.0" }, options as never);
}

/** The server's messages of the session: those of the process that served it (a 2026-07-28 stdio client starts a probe sibling first). */
function serverWire(logFile: string): Msg[] {
  const lines = readFileSync(logFile, "utf8")
    .split("\n")
    .filter(Boolean)
    .map((line) => JSON.parse(line) as { dir: "in" | "out"; pid: number; json: string });
  const pid = lines.at(-1)?.pid;
  return lines.filter((l) => l.pid === pid).map((l) => ({ dir: l.dir, message: JSON.parse(l.json) }));
}

async function runSession(revision: Revision, mode: Mode, dir: string): Promise<Run> {
  const log = join(dir, `server-${revision}-${mode}.jsonl`);
  writeFileSync(log, "");
  const server = ["--import", "tsx", FIXTURE, log];
  const args = mode === "direct" ? server : [BIN, "gateway", "--no-browser", "--protocol", revision, "--", process.execPath, ...server];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: "pipe" });
  let gatewayStderr = "";
  transport.stderr?.on("data", (d: Buffer) => (gatewayStderr += d));
  const wire: WireMessage[] = [];
  const client = clientFor(revision);
  const heard = { tools: deferred(), prompts: deferred(), updated: deferred() };
  client.setNotificationHandler("notifications/tools/list_changed", () => heard.tools.resolve());
  client.setNotificationHandler("notifications/prompts/list_changed", () => heard.prompts.resolve());
  client.setNotificationHandler("notifications/resources/updated", () => heard.updated.resolve());
  const step = <T>(what: string, promise: Promise<T>) => within(promise, STEP_MS, `${what} (${revision}, ${mode})`);
  const modern = revision === "2026-07-28";
  try {
    await step("connect", client.connect(tap(transport, wire)));
    if (!modern) await step("logging/setLevel", client.setLoggingLevel("debug"));
    await step("tools/list", client.listTools({ _meta: { "example.com/trace": "list" } } as never));
    await step("tools/call add", client.callTool({ name: "add", arguments: { a: 2, b: 3 }, _meta: { "example.com/trace": "t1" } }));
    await step("tools/call count", client.callTool({ name: "count", arguments: { to: 3 } }, { onprogress: () => {} }));
    const logLevel = modern ? { _meta: { "io.modelcontextprotocol/logLevel": "debug" } } : {};
    await step("tools/call log", client.callTool({ name: "log", arguments: {}, ...logLevel }));
    // Without a cursor the SDK walks every page (resources/list with the cursor of each); then one page asked by cursor.
    await step("resources/list", client.listResources());
    await step("resources/list page 2", client.listResources({ cursor: "2" }));
    await step("resources/templates/list", client.listResourceTemplates());
    await step("resources/read", client.readResource({ uri: "memo://alpha" }));
    await step("resources/read template", client.readResource({ uri: "note://gateway" }));
    await step("prompts/list", client.listPrompts());
    await step("prompts/get", client.getPrompt({ name: "greet", arguments: { name: "Ada", tone: "warm" } }));
    await step(
      "completion prompt",
      client.complete({ ref: { type: "ref/prompt", name: "greet" }, argument: { name: "name", value: "A" } }),
    );
    await step(
      "completion template",
      client.complete({ ref: { type: "ref/resource", uri: "note://{topic}" }, argument: { name: "topic", value: "g" } }),
    );
    if (!modern) {
      // 2025: resources/subscribe, then a tool that changes the lists and the subscribed resource.
      await step("resources/subscribe", client.subscribeResource({ uri: "memo://alpha" }));
      await step("tools/call change", client.callTool({ name: "change", arguments: {} }));
      await step("list_changed and updated", Promise.all([heard.tools.promise, heard.prompts.promise, heard.updated.promise]));
      await step("resources/unsubscribe", client.unsubscribeResource({ uri: "memo://alpha" }));
    } else {
      // 2026-07-28 tells of changes on a subscriptions/listen stream; that it passes is checked elsewhere
      // (see the docs' list), here the change tool runs as a plain call.
      await step("tools/call change", client.callTool({ name: "change", arguments: {} }));
    }
    // A call the host cancels once it started (its first progress).
    const cancel = new AbortController();
    const cancelled = client.callTool(
      { name: "wait", arguments: {} },
      { signal: cancel.signal, onprogress: () => cancel.abort("no longer needed") },
    );
    await step(
      "the cancelled call to end",
      cancelled.then(
        () => assert.fail("the call was not cancelled"),
        () => {},
      ),
    );
    if (!modern) await step("ping", client.ping());
    // A last request that reaches the server: on stdio, in order, everything before it was heard (the
    // cancellation too), and the server wrote its answer down before sending it.
    await step("tools/list again", client.listTools());
    return { host: recorded(wire), server: serverWire(log), gatewayStderr };
  } catch (error) {
    (error as Error).message += `\n(gateway stderr:\n${gatewayStderr})`;
    throw error;
  } finally {
    await client.close().catch(() => {});
  }
}

/** One side's messages, normalised, as one line each (byte-for-byte JSON after normalising). */
function lines(messages: Msg[], side: Side, mode: Mode, revision: Revision, normalisers: { normalise: Normaliser }[]): string[] {
  const normalised = normalisers.reduce((ms, n) => n.normalise(ms, side, mode, revision), messages);
  return normalised.map(({ dir, message }) => `${dir === "out" ? "→" : "←"} ${JSON.stringify(message)}`);
}

const dir = mkdtempSync(join(tmpdir(), "gateway-fidelity-"));
const unregister = removeOnExit(dir);
after(() => {
  rmSync(dir, { recursive: true, force: true });
  unregister();
});

test("the documented differences are the ones docs/cli/gateway-wire.md lists", () => {
  const text = readFileSync(DOC, "utf8");
  const listed = (heading: string) => {
    const section = text.split(/^## /m).find((s) => s.startsWith(heading)) ?? "";
    return [...section.matchAll(/^- \*\*([a-z0-9-]+)\*\*/gm)].map((m) => m[1]);
  };
  assert.deepEqual(
    listed("What the gateway changes"),
    DIFFERENCES.map((d) => d.id),
  );
});

for (const revision of REVISIONS) {
  describe(`a ${revision} host`, { timeout: 4 * SESSION_MS }, () => {
    let runs: Promise<Record<Mode, Run>> | undefined;
    // Both runs once, one after the other; each test compares them its way.
    const both = () =>
      (runs ??= (async () => ({
        direct: await runSession(revision, "direct", dir),
        gateway: await runSession(revision, "gateway", dir),
      }))());

    for (const side of ["host", "server"] as const) {
      test(`the ${side}'s wire is the same through the gateway, but for the documented differences`, async () => {
        const { direct, gateway } = await both();
        assert.deepEqual(
          lines(gateway[side], side, "gateway", revision, DIFFERENCES),
          lines(direct[side], side, "direct", revision, DIFFERENCES),
        );
      });
    }

    test("the session had every kind of message on the server's wire", async () => {
      const { direct } = await both();
      const methods = new Set(direct.server.map((m) => m.message.method).filter(Boolean));
      const expected = [
        "tools/list",
        "tools/call",
        "resources/list",
        "resources/templates/list",
        "resources/read",
        "prompts/list",
        "prompts/get",
        "completion/complete",
        "notifications/progress",
        "notifications/cancelled",
        ...(revision === "2025-11-25"
          ? [
              "initialize",
              "notifications/initialized",
              "logging/setLevel",
              "notifications/message",
              "resources/subscribe",
              "resources/unsubscribe",
              "notifications/tools/list_changed",
              "notifications/prompts/list_changed",
              "notifications/resources/updated",
              "ping",
            ]
          : []),
      ];
      assert.deepEqual(
        expected.filter((m) => !methods.has(m)),
        [],
      );
      assert.ok(
        direct.server.some((m) => m.message.result?.nextCursor !== undefined),
        "a page with a cursor",
      );
      assert.ok(
        direct.server.some((m) => m.message.result?._meta?.["example.com/echo"] === "t1"),
        "_meta on a request and its result",
      );
    });
  });
}
