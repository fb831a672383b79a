// What the SDK's transports drop, over real transports: `elicit serve travel` on stdio (a child
// process) and serveHttp on 127.0.0.1. The transport parses each message first and loses the id of
// one it refuses, so the client waited its whole timeout; now a malformed request is answered -32600
// with its id, and a malformed reply ends the tool's wait for the person at once.
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { BIN } from "../../helpers/cli.js";
import { killOnExit } from "../../helpers/cleanup.js";
import { stopChild } from "../../helpers/processes.js";
import { httpPeer, linePeer, MALFORMED_REPLIES, MALFORMED_REQUESTS } from "../../helpers/raw-wire.js";
import { serveHttp } from "../../../src/server/http/serve.js";
import { makeFactory } from "../../helpers/server-fixtures.js";

/** What "at once" means here: well under the kit's 10-minute wait, with room for a busy machine. */
const AT_ONCE_MS = 1000;
const BOOK = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
const isElicit = (m: Record<string, any>) => m.method === "elicitation/create";

describe("elicit serve travel on stdio: what the client sends malformed", { timeout: 120_000 }, () => {
  let child: ChildProcess;
  let peer: ReturnType<typeof linePeer>;
  before(async () => {
    child = killOnExit(spawn(process.execPath, [BIN, "serve", "travel"], { stdio: ["pipe", "pipe", "ignore"] }));
    peer = linePeer(child);
    peer.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: { elicitation: { form: {} } }, clientInfo: { name: "raw", version: "1" } },
    });
    await peer.next((m) => m.id === 1, 60_000, "the answer to initialize");
    peer.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  });
  after(() => stopChild(child, "SIGKILL"));

  for (const [i, [name, request]] of MALFORMED_REQUESTS.entries())
    test(`a request with ${name} is answered -32600 with its id`, async () => {
      const id = 100 + i;
      peer.write(request(id, "tools/list"));
      const answer = await peer.next((m) => m.id === id, AT_ONCE_MS, `the answer to request ${id}`);
      assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
      assert.match(answer.error.message, /tools\/list was malformed \(.+\) and was not processed/);
    });

  for (const [i, [name, reply]] of MALFORMED_REPLIES.entries())
    test(`a reply with ${name} to book_trip's question ends the call at once`, async () => {
      const id = 200 + i;
      peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "book_trip", arguments: BOOK } });
      const question = await peer.next(isElicit, 30_000, "book_trip's question");
      const sent = Date.now();
      peer.write(reply(question.id));
      const answer = await peer.next((m) => m.id === id, AT_ONCE_MS, `book_trip's result after a reply with ${name}`);
      assert.equal(answer.result?.isError, true, JSON.stringify(answer).slice(0, 500));
      assert.match(answer.result.content[0].text, /The client's reply was malformed \(.+\), so it was dropped/);
      assert.ok(Date.now() - sent < AT_ONCE_MS);
    });
});

describe("serveHttp: what the client sends malformed", { timeout: 60_000 }, () => {
  let handle: Awaited<ReturnType<typeof serveHttp>>;
  let peer: Awaited<ReturnType<typeof httpPeer>>;
  before(async () => {
    handle = await serveHttp(makeFactory().factory, { host: "127.0.0.1", port: 0 });
    peer = await httpPeer(handle.url);
  });
  after(() => handle.close());

  for (const [i, [name, request]] of MALFORMED_REQUESTS.entries())
    test(`a request with ${name} is answered -32600 with its id`, async () => {
      const id = 100 + i;
      await peer.post(request(id, "tools/list"));
      const answer = await peer.next((m) => m.id === id, AT_ONCE_MS, `the answer to request ${id}`);
      assert.equal(answer.error?.code, -32600, JSON.stringify(answer));
      assert.match(answer.error.message, /tools\/list was malformed \(.+\) and was not processed/);
    });

  for (const [i, [name, reply]] of MALFORMED_REPLIES.entries())
    test(`a reply with ${name} to the tool's question ends the call at once`, async () => {
      const id = 200 + i;
      await peer.send({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "pick_many", arguments: {} } });
      const question = await peer.next(isElicit, 10_000, "pick_many's question");
      const sent = Date.now();
      await peer.post(reply(question.id));
      const answer = await peer.next((m) => m.id === id, AT_ONCE_MS, `pick_many's result after a reply with ${name}`);
      assert.equal(answer.result?.isError, true, JSON.stringify(answer).slice(0, 500));
      assert.match(answer.result.content[0].text, /The client's reply was malformed \(.+\), so it was dropped/);
      assert.ok(Date.now() - sent < AT_ONCE_MS);
    });
});
