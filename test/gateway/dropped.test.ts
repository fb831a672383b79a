// `elicit gateway` on stdio between a raw host and a stdio server: a malformed request from the host
// is answered -32600 with its id, and a malformed reply from the server to a forwarded tools/call
// ends that call at once with an error. Before, the SDK's transports lost the id with the message and
// the host waited (seen: nothing in 320 s).
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { BIN } from "../helpers/cli.js";
import { killOnExit } from "../helpers/cleanup.js";
import { stopChild } from "../helpers/processes.js";
import { linePeer, MALFORMED_REQUESTS } from "../helpers/raw-wire.js";

const SERVER = fileURLToPath(new URL("../fixtures/malformed-reply-server.mjs", import.meta.url));
const AT_ONCE_MS = 1000;

/** The gateway in front of the fixture server that answers tools/call with `shape`, initialized by a raw host. */
async function gatewayHost(shape: string) {
  const child = killOnExit(
    spawn(process.execPath, [BIN, "gateway", "--no-browser", "--no-notify", "--", process.execPath, SERVER, shape], {
      stdio: ["pipe", "pipe", "ignore"],
    }),
  );
  const host = linePeer(child);
  host.send({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "raw-host", version: "1" } },
  });
  await host.next((m) => m.id === 1, 60_000, "the gateway's answer to initialize");
  host.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  return { host, stop: () => stopChild(child, "SIGKILL") };
}

describe("elicit gateway on stdio: malformed messages either way", { timeout: 240_000 }, () => {
  test("each malformed request from the host is answered -32600 with its id within a second", async () => {
    const { host, stop } = await gatewayHost("result-null");
    try {
      for (const [i, [name, request]] of MALFORMED_REQUESTS.entries()) {
        host.write(request(100 + i, "tools/call"));
        const answer = await host.next((m) => m.id === 100 + i, AT_ONCE_MS, `the answer to a request with ${name}`);
        assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
        assert.match(answer.error.message, /tools\/call was malformed \(.+\) and was not processed/);
      }
    } finally {
      await stop();
    }
  });

  for (const shape of ["result-null", "jsonrpc-1.0", "result-and-error", "deep"])
    test(`the server's ${shape} reply to a forwarded tools/call ends it within a second`, async () => {
      const { host, stop } = await gatewayHost(shape);
      try {
        host.send({ jsonrpc: "2.0", id: 7, method: "tools/call", params: { name: "echo", arguments: {} } });
        const answer = await host.next((m) => m.id === 7, AT_ONCE_MS, "the host's answer to tools/call");
        const text = JSON.stringify(answer);
        assert.match(text, /The server's reply was malformed/, text.slice(0, 400));
      } finally {
        await stop();
      }
    });
});
