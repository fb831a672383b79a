// A 2025 host through `elicit gateway` in front of a server that also speaks 2026-07-28 (the fidelity
// server, on stdio). With --protocol auto the gateway serves the host over a connection at the host's
// own revision, so resources/subscribe reaches the server as the host sent it; pinned to 2026-07-28 (a
// server without the host's revision) it translates: the host's subscriptions become one
// subscriptions/listen stream, and the server's updates and list changes reach the host as 2025
// notifications. Either way the host subscribes, hears the change of its resource and of the lists,
// and unsubscribes.
import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { BIN } from "../helpers/cli.js";
import { deferred, within } from "../helpers/deferred.js";
import { scratchFiles, whenFileHas } from "../helpers/files.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/fidelity-server.ts", import.meta.url));
const STEP_MS = 30_000;
const scratch = scratchFiles("gateway-revisions-");

type Logged = { dir: "in" | "out"; pid: number; message: Record<string, any> };
const logged = (text: string): Logged[] =>
  text
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const { dir, pid, json } = JSON.parse(line) as { dir: "in" | "out"; pid: number; json: string };
      return { dir, pid, message: JSON.parse(json) as Record<string, any> };
    });

/** Resolves with the server's logged messages once one it received matches `pick`. */
const serverHeard = (log: string, what: string, pick: (m: Record<string, any>) => boolean) =>
  whenFileHas(log, (text) => (logged(text).some((l) => l.dir === "in" && pick(l.message)) ? logged(text) : undefined), what, STEP_MS);

/** A 2025-11-25 SDK host that launches the gateway in front of the fidelity server; it subscribes, hears the change, unsubscribes. */
async function subscribeThroughGateway(gatewayOptions: string[], log: string) {
  writeFileSync(log, "");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, "gateway", "--no-browser", "--no-notify", ...gatewayOptions, "--", process.execPath, "--import", "tsx", FIXTURE, log],
    stderr: "pipe",
  });
  let stderr = "";
  transport.stderr?.on("data", (d: Buffer) => (stderr += d));
  const host = new Client({ name: "host-2025", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
  const heard = { tools: deferred(), prompts: deferred(), updated: deferred() };
  let updatedUri: unknown;
  host.setNotificationHandler("notifications/tools/list_changed", () => heard.tools.resolve());
  host.setNotificationHandler("notifications/prompts/list_changed", () => heard.prompts.resolve());
  host.setNotificationHandler("notifications/resources/updated", (n) => ((updatedUri = n.params), heard.updated.resolve()));
  const step = <T>(what: string, promise: Promise<T>) => within(promise, STEP_MS, `${what} (gateway ${gatewayOptions.join(" ")})`);
  try {
    await step("connect", host.connect(transport));
    assert.equal(host.getNegotiatedProtocolVersion(), "2025-11-25");
    assert.equal(host.getServerCapabilities()?.resources?.subscribe, true, "the gateway offers resources/subscribe");
    // A subscription without a URI is refused, naming the member, and takes nothing.
    await assert.rejects(
      step("a subscribe without uri", host.request({ method: "resources/subscribe", params: {} })),
      (error: { code?: unknown }) => {
        assert.equal(error.code, -32602);
        return true;
      },
    );
    await step("resources/subscribe", host.subscribeResource({ uri: "memo://alpha" }));
    await step("tools/call change", host.callTool({ name: "change", arguments: {} }));
    await step("list changes and the update", Promise.all([heard.tools.promise, heard.prompts.promise, heard.updated.promise]));
    assert.deepEqual(updatedUri, { uri: "memo://alpha" }, "the update as a 2025 host reads it (no listen stream id)");
    await step("resources/unsubscribe", host.unsubscribeResource({ uri: "memo://alpha" }));
  } catch (error) {
    (error as Error).message += `\n(gateway stderr:\n${stderr})`;
    throw error;
  } finally {
    await host.close().catch(() => {});
  }
}

describe("elicit gateway: a 2025 host in front of a server that also speaks 2026-07-28", { timeout: 180_000 }, () => {
  test("--protocol auto: the host is served at its own revision, and resources/subscribe reaches the server as sent", async () => {
    const log = join(scratch.dir, "auto.jsonl");
    await subscribeThroughGateway([], log);
    const server = await serverHeard(log, "no resources/unsubscribe", (m) => m.method === "resources/unsubscribe");
    const subscribe = server.find((l) => l.dir === "in" && l.message.method === "resources/subscribe")!;
    assert.deepEqual(subscribe.message.params, { uri: "memo://alpha" });
    const initialize = server.find((l) => l.pid === subscribe.pid && l.message.method === "initialize");
    assert.equal(initialize?.message.params.protocolVersion, "2025-11-25", "over a connection at the host's revision");
  });

  test("--protocol 2026-07-28: the subscription is a subscriptions/listen stream, dropped once the host unsubscribes", async () => {
    const log = join(scratch.dir, "pinned.jsonl");
    await subscribeThroughGateway(["--protocol", "2026-07-28"], log);
    const server = await serverHeard(
      log,
      "no subscriptions/listen without the resource",
      (m) => m.method === "subscriptions/listen" && m.params?.notifications?.resourceSubscriptions === undefined,
    );
    const listens = server
      .filter((l) => l.dir === "in" && l.message.method === "subscriptions/listen")
      .map((l) => l.message.params.notifications);
    assert.ok(
      listens.some(
        (n) => JSON.stringify(n.resourceSubscriptions) === JSON.stringify(["memo://alpha"]) && n.toolsListChanged && n.promptsListChanged,
      ),
      `a stream for the resource and the list changes: ${JSON.stringify(listens)}`,
    );
    assert.ok(!server.some((l) => l.message.method === "resources/subscribe"), "no resources/subscribe on the 2026-07-28 wire");
  });
});
