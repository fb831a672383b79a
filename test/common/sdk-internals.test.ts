// The canary for the SDK members mcp-elicit uses that are not public API (src/common/sdk-internals.ts):
// each is there and does what we rely on in the installed SDK; an SDK that moved one fails here,
// loudly, and at startup with SdkInternalsError, never by quietly losing a feature.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { Client } from "@modelcontextprotocol/client";
import { InMemoryTransport, McpServer } from "@modelcontextprotocol/server";
import {
  requestHandlers,
  SdkInternalsError,
  serverName,
  SUPPORTED_SDK,
  watchNotifications,
  wrapClientHandlers,
} from "../../src/common/sdk-internals.js";

const require = createRequire(import.meta.url);

test(`the installed SDK is the supported ${SUPPORTED_SDK}.x, and package.json cannot install another minor`, () => {
  for (const name of ["server", "client"]) {
    const manifest = new URL(`../../node_modules/@modelcontextprotocol/${name}/package.json`, import.meta.url);
    const { version } = JSON.parse(readFileSync(manifest, "utf8")) as { version: string };
    assert.ok(version.startsWith(`${SUPPORTED_SDK}.`), `@modelcontextprotocol/${name} ${version}`);
  }
  const pkg = require("../../package.json") as Record<string, Record<string, string> | undefined>;
  for (const name of ["@modelcontextprotocol/server", "@modelcontextprotocol/client"]) {
    const range = pkg.peerDependencies?.[name] ?? pkg.dependencies?.[name];
    assert.ok(range, `${name} is declared`);
    assert.doesNotMatch(range!, /^\^|^>=?\s*2(\.\d+)?\s*$|\*|x$/, `${name}: "${range}" would allow an untested minor`);
  }
});

test("serverName: the name the McpServer was made with", () => {
  assert.equal(serverName(new McpServer({ name: "travel", version: "1" }).server), "travel");
  assert.throws(() => serverName({}), SdkInternalsError);
});

test("requestHandlers: McpServer's tools/call handler is in the map once a tool is registered", () => {
  const server = new McpServer({ name: "s", version: "1" });
  server.registerTool("t", { description: "d" }, async () => ({ content: [] }));
  const handlers = requestHandlers(server.server);
  assert.equal(typeof handlers.get("tools/call"), "function");
  assert.throws(() => requestHandlers({}), SdkInternalsError);
});

test("watchNotifications sees a client's notification before the author's own handler, which still runs", async () => {
  const server = new McpServer({ name: "s", version: "1" });
  const seen: unknown[] = [];
  let theirs = 0;
  server.server.setNotificationHandler("notifications/roots/list_changed", async () => void theirs++);
  watchNotifications(server.server, (n) => seen.push(n.method));
  const client = new Client({ name: "c", version: "1" }, { capabilities: { roots: { listChanged: true } } });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await server.connect(b);
  await client.connect(a);
  try {
    await client.sendRootsListChanged();
    for (let i = 0; i < 50 && theirs === 0; i++) await new Promise((r) => setTimeout(r, 10));
    assert.ok(seen.includes("notifications/roots/list_changed"), JSON.stringify(seen));
    assert.equal(theirs, 1);
  } finally {
    await client.close();
  }
  assert.throws(() => watchNotifications({}, () => {}), SdkInternalsError);
});

test("wrapClientHandlers wraps the SDK's own wrapper for handlers registered meanwhile, then restores the hook", async () => {
  const client = new Client({ name: "c", version: "1" }, { capabilities: { elicitation: { form: {} } } });
  const before = (client as unknown as { _wrapHandler: unknown })._wrapHandler;
  const wrapped: string[] = [];
  wrapClientHandlers(
    client,
    (method, inner) => {
      wrapped.push(method);
      return inner;
    },
    () => client.setRequestHandler("elicitation/create", async () => ({ action: "cancel" })),
  );
  assert.deepEqual(wrapped, ["elicitation/create"]);
  assert.equal((client as unknown as { _wrapHandler: unknown })._wrapHandler, before, "the hook is the SDK's again");
  assert.equal(Object.hasOwn(client, "_wrapHandler"), false);
  assert.throws(
    () =>
      wrapClientHandlers(
        {},
        (_m, h) => h,
        () => {},
      ),
    SdkInternalsError,
  );
});
