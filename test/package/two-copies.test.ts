// An app with its own copy of the MCP SDK and of zod: our code (loading the repo's copies) must still
// recognise the app's SDK errors and zod schemas, and drive the app's McpServer and Client (the same
// version, as the peer range demands). The SDK brands its error classes (Symbol.for("mcp.sdk.errorBrands"))
// and zod 4 checks `instanceof` by trait name, so both survive two copies; these tests hold them to it,
// through every instanceof of ours that can meet the app's objects:
//   src/server/live/live.ts      SdkError (RequestTimeout) thrown by the app's McpServer      -> the "wait" test
//   src/client/url-flow.ts  UrlElicitationRequiredError thrown by the app's Client       -> the -32042 test
//   src/cli/exit.ts, demo.ts ProtocolError (the CLI's own copy: checked here as a class property)
//   src/schema/zod.ts       an object schema from the app's zod (now duck-typed on `_zod.def`)
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { ProtocolError as OurProtocolError } from "@modelcontextprotocol/client";
import { SdkError as OurSdkError } from "@modelcontextprotocol/server";
import { form, fromZod, yesNo } from "../../src/schema/index.js";
import { createElicitation } from "../../src/server/index.js";
import { attachElicitation, type ElicitationUI, type UrlWaitOutcome } from "../../src/client/index.js";
import type * as OptionalPeers from "../../src/common/optional-peers.js";
import { removeOnExit } from "../helpers/cleanup.js";

const repoModules = fileURLToPath(new URL("../../node_modules/", import.meta.url));
let dir: string;
// The app's copies: loaded from a temporary node_modules, so every class in them is a different object.
let app: {
  client: typeof import("@modelcontextprotocol/client");
  server: typeof import("@modelcontextprotocol/server");
  stdio: typeof import("@modelcontextprotocol/server/stdio");
  z: typeof import("zod");
  zm: typeof import("zod/mini");
};

before(async () => {
  dir = mkdtempSync(join(tmpdir(), "mcp-elicit-copies-"));
  removeOnExit(dir); // also when the file is cut before its after hooks
  const modules = join(dir, "node_modules");
  mkdirSync(join(modules, "@modelcontextprotocol"), { recursive: true });
  for (const name of ["@modelcontextprotocol/client", "@modelcontextprotocol/server", "@modelcontextprotocol/core", "zod"]) {
    cpSync(join(repoModules, name), join(modules, name), { recursive: true, filter: (src) => !src.endsWith(".map") });
  }
  // The SDK's other dependencies hold no classes we check: shared with the repo.
  for (const name of ["cross-spawn", "eventsource", "eventsource-parser", "jose", "pkce-challenge"])
    symlinkSync(join(repoModules, name), join(modules, name), "dir");
  writeFileSync(
    join(dir, "app.mjs"),
    [
      'export * as client from "@modelcontextprotocol/client";',
      'export * as server from "@modelcontextprotocol/server";',
      'export * as stdio from "@modelcontextprotocol/server/stdio";',
      'export * as z from "zod";',
      'export * as zm from "zod/mini";',
    ].join("\n"),
  );
  app = await import(pathToFileURL(join(dir, "app.mjs")).href);
});

after(() => rmSync(dir, { recursive: true, force: true }));

test("the app's copies are really other copies", () => {
  assert.notEqual(app.client.ProtocolError, OurProtocolError);
  assert.notEqual(app.server.SdkError, OurSdkError);
});

test("SDK error classes recognise each other's instances across copies (what live.ts, url-flow.ts and exit.ts rely on)", () => {
  assert.ok(new app.client.ProtocolError(-32602, "x") instanceof OurProtocolError);
  assert.ok(new app.server.SdkError(app.server.SdkErrorCode.RequestTimeout, "t") instanceof OurSdkError);
  assert.ok(!(new Error("plain") instanceof OurProtocolError));
});

test("fromZod takes an object schema from the app's zod, classic or mini", () => {
  const expected = { type: "object", properties: { ok: { type: "boolean" } }, required: ["ok"] };
  assert.deepEqual(fromZod(app.z.object({ ok: app.z.boolean() }) as never), expected);
  assert.deepEqual(fromZod(app.zm.object({ ok: app.zm.boolean() }) as never), expected);
  assert.throws(() => fromZod(app.z.string() as never), /must be a z\.object/);
});

const ask = form({ ok: yesNo() });

/** The app's McpServer with our tools, and the app's Client with our elicitation handler, in memory. */
async function connected(revision: "2025-11-25" | "2026-07-28", ui: ElicitationUI) {
  const kit = createElicitation();
  const makeServer = () => {
    const server = new app.server.McpServer({ name: "app-server", version: "1.0.0" });
    kit.registerTool(
      server as never,
      "confirm",
      { description: "Asks once", inputSchema: app.z.object({ what: app.z.string() }) as never },
      async (args, ctx) => {
        const answer = await ctx.elicit(`Confirm ${(args as { what: string }).what}?`, ask);
        return { content: [{ type: "text", text: JSON.stringify(answer) }] };
      },
    );
    kit.registerTool(server as never, "wait", { description: "Asks with a short timeout" }, async (_args, ctx) => {
      const answer = await ctx.elicit("Anyone there?", ask, { timeoutMs: 150 });
      return { content: [{ type: "text", text: JSON.stringify(answer) }] };
    });
    let paid = false;
    server.registerTool("pay", {}, async () => {
      if (paid) return { content: [{ type: "text", text: "paid" }] };
      paid = true;
      throw new app.server.UrlElicitationRequiredError([
        { mode: "url", message: "Pay here.", url: "https://example.com/pay", elicitationId: "pay-1" },
      ]);
    });
    return server;
  };
  const options: Record<string, unknown> = { capabilities: {} };
  if (revision === "2026-07-28") options.versionNegotiation = { mode: { pin: "2026-07-28" } };
  else options.supportedProtocolVersions = ["2025-11-25"];
  const client = new app.client.Client({ name: "app-client", version: "1.0.0" }, options as never);
  const handle = attachElicitation(client as never, { ui });
  const [clientSide, serverSide] = app.server.InMemoryTransport.createLinkedPair();
  if (revision === "2026-07-28") app.stdio.serveStdio(() => makeServer(), { transport: serverSide } as never);
  else await makeServer().connect(serverSide);
  await client.connect(clientSide);
  return { client, handle };
}

const textOf = (result: unknown) => (result as { content: { text: string }[] }).content[0]!.text;

function uiAnswering(outcome: UrlWaitOutcome = "retry"): ElicitationUI & { urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    form: async (request, context) => {
      if (request.message.startsWith("Anyone")) {
        // Never answered: the server's wait must end with its timeout (an SdkError from the app's copy).
        return new Promise((resolve) => context.signal.addEventListener("abort", () => resolve({ action: "cancel" })));
      }
      return { action: "accept", content: { ok: true } };
    },
    url: async (request) => (urls.push(request.analysis.url), "accept"),
    waitForUrl: async () => outcome,
    notice: () => {},
  };
}

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`our server and client code on the app's SDK copy (${revision})`, () => {
    test("ctx.elicit on the app's McpServer, answered by attachElicitation on the app's Client", async () => {
      const { client, handle } = await connected(revision, uiAnswering());
      try {
        const result = await handle.callTool({ name: "confirm", arguments: { what: "the trip" } });
        assert.deepEqual(JSON.parse(textOf(result)), { action: "accept", content: { ok: true } });
      } finally {
        await client.close();
      }
    });
  });
}

test("a wait that times out on the app's McpServer is our InputTimeoutError (live.ts's SdkError check)", async () => {
  const { client, handle } = await connected("2025-11-25", uiAnswering());
  try {
    const result = (await handle.callTool({ name: "wait", arguments: {} })) as { isError?: boolean };
    assert.equal(result.isError, true);
    assert.equal(textOf(result), 'No answer to "Anyone there?" within 150 ms; the request was withdrawn.');
  } finally {
    await client.close();
  }
});

test("a -32042 from the app's Client starts our URL flow (url-flow.ts's UrlElicitationRequiredError check)", async () => {
  const ui = uiAnswering("retry");
  const { client, handle } = await connected("2025-11-25", ui);
  try {
    const result = await handle.callTool({ name: "pay", arguments: {} });
    assert.equal(textOf(result), "paid");
    assert.deepEqual(ui.urls, ["https://example.com/pay"]);
  } finally {
    await client.close();
  }
});

// mcp-elicit's optional peers (the terminal's, the model provider's, the sign-in server's) are looked up
// from where that copy of mcp-elicit is installed, as its own imports are, and as a strict install (pnpm)
// links them: a package the app or the repository has somewhere else does not count.
test("a second copy of mcp-elicit finds its optional peers beside it, not where the repository has them", async () => {
  const copyDir = join(dir, "another-mcp-elicit");
  mkdirSync(copyDir);
  writeFileSync(join(copyDir, "package.json"), JSON.stringify({ name: "mcp-elicit", type: "module" }));
  // The module and what it imports (its error's base; rules.ts only for types), laid out as in src/.
  for (const file of ["common/optional-peers.ts", "schema/errors.ts"]) {
    mkdirSync(dirname(join(copyDir, file)), { recursive: true });
    copyFileSync(fileURLToPath(new URL(`../../src/${file}`, import.meta.url)), join(copyDir, file));
  }
  const copy = (await import(pathToFileURL(join(copyDir, "common/optional-peers.ts")).href)) as typeof OptionalPeers;
  assert.deepEqual(copy.missingPeers(["ora", "openai"]), ["ora", "openai"], "the repository's own ora and openai are not beside the copy");
  await assert.rejects(
    copy.loadWithPeers("mcp-elicit/openai", async () => assert.fail("loaded without openai")),
    (error: Error) => error.name === "MissingPeerError" && error.message.endsWith("npm install openai"),
  );
  symlinkSync(join(repoModules, "ora"), join(dir, "node_modules", "ora"), "dir");
  assert.deepEqual(copy.missingPeers(["ora", "openai"]), ["openai"], "ora installed beside the copy");
});
