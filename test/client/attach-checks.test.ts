// What a JavaScript host can get wrong is refused where it is made, with a message naming it: a UI
// without a method the client will call (it used to fail only when a server's request needed it, and
// the server got "-32603 options.ui.notice is not a function"), and rawRequest's params not an object
// (it used to throw "Cannot read properties of null").
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { Client, InMemoryTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, attachSampling, rawRequest, RawRequestParamsError } from "../../src/client/index.js";
import { RecordingUI } from "../helpers/recording-ui.js";

const client = () => new Client({ name: "host", version: "1.0.0" });
const without = (ui: object, method: string) => {
  const copy: Record<string, unknown> = {};
  for (const name of ["form", "url", "notice", "waitForUrl", "reviewRequest", "reviewAnswer"])
    if (name !== method && typeof (ui as Record<string, unknown>)[name] === "function")
      copy[name] = (ui as Record<string, (...a: unknown[]) => unknown>)[name]!.bind(ui);
  return copy;
};

describe("attachElicitation and attachSampling check the UI when attached", () => {
  for (const method of ["notice", "form", "url"])
    test(`a UI without ${method} is refused with a TypeError naming it`, () => {
      assert.throws(
        () => attachElicitation(client(), { ui: without(new RecordingUI(), method) as never }),
        (error: Error) => error instanceof TypeError && error.message.includes(`options.ui.${method} must be a function`),
      );
    });

  test("a UI without url is accepted when URL mode is not offered; optional methods are never required", () => {
    const handle = attachElicitation(client(), { ui: without(new RecordingUI(), "url") as never, modes: ["form"] });
    assert.equal(typeof handle.callTool, "function");
    attachElicitation(client(), { ui: without(new RecordingUI(), "waitForUrl") as never });
  });

  test("attachSampling: a UI without reviewAnswer is refused with a TypeError naming it", () => {
    const ui = { reviewRequest: async () => ({ action: "deny" }), notice: () => {} };
    assert.throws(
      () => attachSampling(client(), { ui: ui as never }),
      (error: Error) => error instanceof TypeError && error.message.includes("options.ui.reviewAnswer must be a function"),
    );
  });
});

describe("rawRequest refuses params that are not an object, before sending anything", () => {
  test("null, an array, a string, and a _meta that is not an object", async () => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await new McpServer({ name: "s", version: "1.0.0" }).connect(serverSide);
    const c = client();
    await c.connect(clientSide);
    let sent = 0;
    const send = clientSide.send.bind(clientSide);
    clientSide.send = (...args) => (sent++, send(...args));
    try {
      for (const [params, said] of [
        [null, "params must be an object, got null"],
        [[], "params must be an object, got an array"],
        ["x", "params must be an object, got string"],
        [{ _meta: 5 }, "params._meta must be an object, got number"],
      ] as const) {
        await assert.rejects(
          rawRequest(c, "tasks/get", params as never),
          (error: Error) => error instanceof RawRequestParamsError && error.message === `tasks/get: ${said}; nothing was sent.`,
        );
      }
      assert.equal(sent, 0, "nothing reached the transport");
    } finally {
      await c.close();
    }
  });
});
