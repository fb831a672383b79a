// A server restarted mid-flow, on the same SQLite file: the flow a signed-in caller started (-32042,
// 2025-11-25) is still there for the new process; its page ends it, and the caller's next call of the
// same tool finds it. The URL she was given stays valid, since the new server answers on the same origin.
import { test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { attachElicitation } from "../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest, UrlWaitOutcome } from "../../../src/client/ui.js";
import { UrlElicitationEndedError } from "../../../src/client/url-flow.js";
import { startOpenIdProvider } from "../../../src/oidc/openid-provider.js";
import { serveHttp, type HttpServerHandle } from "../../../src/server/http/serve.js";
import { createElicitation } from "../../../src/server/kit/elicitation.js";
import { createUrlKit, type UrlKit } from "../../../src/server/url/url-kit.js";
import { sqliteStore } from "../../../src/store/sqlite.js";
import { scratchFiles } from "../../helpers/files.js";
import { signIn } from "../../helpers/oidc.js";

/** Consents, then asks to retry at once (before any page finished): the client gives up with "repeated". */
class Impatient implements ElicitationUI {
  urls: UrlRequest[] = [];
  async form(): Promise<never> {
    throw new Error("no form expected");
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    return "accept";
  }
  async waitForUrl(): Promise<UrlWaitOutcome> {
    return "retry";
  }
  notice(): void {}
}

test("restarted on the same SQLite file, the server still knows the flow; the page ends it and the caller's next call finds it", async () => {
  const { dir } = scratchFiles("url-restart-");
  const file = join(dir, "kit.db");
  const vaultKey = randomBytes(32);
  const op = await startOpenIdProvider();
  const kitOn = (store: ReturnType<typeof sqliteStore>) =>
    createUrlKit({
      store,
      vaultKey,
      oidc: { issuer: op.issuer },
      providers: { skymiles: { issuer: op.issuer, clientId: "skymiles-client", scopes: ["openid"] } },
    });
  const serve = (kit: UrlKit, port?: number) =>
    serveHttp(
      () => {
        const server = new McpServer({ name: "travel", version: "1.0.0" });
        createElicitation({ urlKit: kit }).registerTool(server, "link_miles", { description: "Connect miles" }, async (_args, ctx) => {
          const { outcome, flowId } = await ctx.connect("skymiles", { via: "error" });
          return { content: [{ type: "text", text: `${outcome} ${flowId}` }] };
        });
        return server;
      },
      { auth: { issuer: op.issuer }, urlKit: kit, ...(port ? { port } : {}) },
    );
  const callAs = async (http: HttpServerHandle, token: string, ui: ElicitationUI) => {
    const client = new Client({ name: "host", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
    const handle = attachElicitation(client, { ui });
    await client.connect(new StreamableHTTPClientTransport(http.url, { requestInit: { headers: { authorization: `Bearer ${token}` } } }));
    try {
      return await handle.callTool({ name: "link_miles", arguments: {} });
    } finally {
      await client.close();
    }
  };

  const firstStore = sqliteStore(file);
  const firstKit = kitOn(firstStore);
  const first = await serve(firstKit);
  let secondStore: ReturnType<typeof sqliteStore> | undefined;
  let second: HttpServerHandle | undefined;
  let restarted = false;
  try {
    const { accessToken } = await signIn({ issuer: op.issuer, user: "alice", resource: first.url.href, scopes: ["mcp:tools"] });
    const person = new Impatient();
    await assert.rejects(
      callAs(first, accessToken, person),
      (e: unknown) => e instanceof UrlElicitationEndedError && e.reason === "repeated",
    );
    const url = person.urls[0]!.analysis.url;
    const flowId = new URL(url).pathname.split("/").pop()!;

    // The restart: the first process's server, kit and store are gone.
    await first.close();
    await firstKit.close();
    await firstStore.close();
    restarted = true;
    secondStore = sqliteStore(file);
    const secondKit = kitOn(secondStore);
    second = await serve(secondKit, Number(first.url.port));
    try {
      assert.equal(secondKit.connectUrl(flowId), url, "the link she holds points at the new server");
      const flow = await secondKit.flows.get(flowId);
      assert.deepEqual([flow?.kind, flow?.provider, flow?.principal], ["connect", "skymiles", { issuer: op.issuer, sub: "alice" }]);
      // What the connect page does when she finishes there.
      assert.equal(await secondKit.flows.finish(flowId, "completed"), true);
      const result = (await callAs(second, accessToken, new Impatient())) as CallToolResult;
      assert.deepEqual(result.content, [{ type: "text", text: `connected ${flowId}` }]);
    } finally {
      await secondKit.close();
    }
  } finally {
    await second?.close();
    await secondStore?.close();
    if (!restarted) await Promise.all([first.close(), firstKit.close()]).then(() => firstStore.close());
    await op.close();
  }
});
