// ctx.roots end to end: raw SDK v2 clients answering roots/list, servers from createElicitation,
// in-memory and Streamable HTTP, on every revision; the per-connection cache of 2025 eras and its
// invalidation by notifications/roots/list_changed, next to the server author's own handler.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Client } from "@modelcontextprotocol/client";
import { PROTOCOL_REVISIONS, type ProtocolRevision } from "../../../src/schema/types.js";
import { callWith, manualClient, type ManualCall } from "../../helpers/manual-client.js";
import { assertWireValid, clientFor, connect, connectRewritingResults, type TransportKind, type WireMessage } from "../../helpers/mcp.js";
import { deferred } from "../../helpers/deferred.js";
import { resultJson } from "../../helpers/results.js";
import { answerRoots, makeInputsFactory, type InputsFactoryOptions } from "../../helpers/inputs-fixtures.js";

const TRANSPORTS: TransportKind[] = ["memory", "http"];
const LEGACY = ["2025-06-18", "2025-11-25"] as const;
type Conn = Awaited<ReturnType<typeof connect>>;

async function withConnection(
  revision: ProtocolRevision,
  kind: TransportKind,
  caps: Record<string, unknown>,
  body: (conn: Conn) => Promise<void>,
  options: InputsFactoryOptions = {},
) {
  const conn = await connect(clientFor(revision, caps), makeInputsFactory(options).factory, revision, kind);
  try {
    await body(conn);
  } finally {
    await conn.close(); // also checks every message on the wire against schema.json
  }
}

const listRoots = async (client: Client) => resultJson(await client.callTool({ name: "list_roots", arguments: {} })).roots;
const rootsRequests = (wire: WireMessage[]) => wire.filter((w) => w.dir === "in" && w.message.method === "roots/list").length;
const rounds = (wire: WireMessage[]) =>
  wire.filter((w) => w.dir === "in" && w.message.result?.resultType === "input_required").map((w) => w.message.result);
const project = { uri: "file:///home/ada/project", name: "Project" };
const docs = { uri: "file:///home/ada/docs" };

for (const revision of PROTOCOL_REVISIONS) {
  for (const kind of TRANSPORTS) {
    describe(`ctx.roots on ${revision} over ${kind}`, () => {
      test("the client's roots reach the tool, and the messages are valid", async () => {
        await withConnection(revision, kind, { roots: {} }, async ({ client, wire }) => {
          const calls = answerRoots(client, () => [project, docs]);
          assert.deepEqual(resultJson(await client.callTool({ name: "list_roots", arguments: {} })), {
            roots: [project, docs],
            protocol: revision,
          });
          assert.equal(calls.count, 1);
          if (revision === "2026-07-28") {
            assert.deepEqual(
              rounds(wire).map((r) => r.inputRequests),
              [{ "roots-1": { method: "roots/list", params: {} } }],
            );
            assert.equal(rootsRequests(wire), 0, "no server→client request on 2026-07-28");
          } else {
            assert.equal(rootsRequests(wire), 1);
          }
          const checked = assertWireValid(wire, revision);
          assert.ok(checked >= 2, `${checked} messages checked against schema.json`);
        });
      });

      test("a client without roots gets a clear refusal", async () => {
        await withConnection(revision, kind, { sampling: {} }, async ({ client, wire }) => {
          const call = client.callTool({ name: "list_roots", arguments: {} });
          if (revision === "2026-07-28") {
            await assert.rejects(call, (e: any) => {
              assert.equal(e.code, -32021);
              assert.deepEqual(e.data.requiredCapabilities, { roots: {} });
              return true;
            });
          } else {
            const result = (await call) as Record<string, any>;
            assert.equal(result.isError, true);
            assert.equal(
              result.content[0].text,
              `This tool needs the client's roots (roots/list), but the client did not declare the "roots" capability.`,
            );
            assert.deepEqual(result.structuredContent, { error: "input_unavailable", capability: "roots", request: "roots/list" });
          }
          assert.equal(rootsRequests(wire), 0);
        });
      });
    });
  }
}

describe("the roots cache of 2025-era connections", () => {
  for (const revision of LEGACY) {
    for (const kind of TRANSPORTS) {
      for (const when of ["before", "after"] as const) {
        test(`is kept until list_changed, which still reaches the author's handler set ${when} the tools (${revision}, ${kind})`, async () => {
          const changed = deferred();
          let authorSaw = 0;
          const onChanged = () => {
            authorSaw++;
            changed.resolve();
          };
          await withConnection(
            revision,
            kind,
            { roots: { listChanged: true } },
            async ({ client, wire }) => {
              let current: { uri: string; name?: string }[] = [project];
              const calls = answerRoots(client, () => current);
              assert.deepEqual(await listRoots(client), [project]);
              assert.deepEqual(await listRoots(client), [project]);
              assert.equal(calls.count, 1, "the second call was answered from the cache");
              current = [project, docs];
              await client.sendRootsListChanged();
              await changed.promise;
              assert.equal(authorSaw, 1, "the author's own handler ran");
              assert.deepEqual(await listRoots(client), [project, docs], "the next call asked again");
              assert.deepEqual(await listRoots(client), [project, docs]);
              assert.equal(calls.count, 2);
              assert.equal(rootsRequests(wire), 2);
            },
            { authorRootsHandler: { when, onChanged } },
          );
        });
      }

      test(`a client that promised no list_changed is asked on every call (${revision}, ${kind})`, async () => {
        await withConnection(revision, kind, { roots: {} }, async ({ client }) => {
          const calls = answerRoots(client, () => [project]);
          await listRoots(client);
          await listRoots(client);
          assert.equal(calls.count, 2);
        });
      });
    }

    test(`an answer overtaken by list_changed is not cached (${revision})`, async () => {
      const changed = deferred();
      await withConnection(
        revision,
        "memory",
        { roots: { listChanged: true } },
        async ({ client }) => {
          let n = 0;
          client.setRequestHandler("roots/list", async () => {
            // The list changes while the first answer is on its way: the notification goes out first.
            if (++n === 1) await client.sendRootsListChanged();
            return { roots: [{ uri: `file:///v${n}` }] };
          });
          assert.deepEqual(await listRoots(client), [{ uri: "file:///v1" }]);
          await changed.promise;
          assert.deepEqual(await listRoots(client), [{ uri: "file:///v2" }]);
          assert.equal(n, 2);
        },
        { authorRootsHandler: { when: "before", onChanged: changed.resolve } },
      );
    });

    test(`each connection has its own cache (${revision})`, async () => {
      const made = makeInputsFactory();
      const a = await connect(clientFor(revision, { roots: { listChanged: true } }), made.factory, revision, "memory");
      const b = await connect(clientFor(revision, { roots: { listChanged: true } }), made.factory, revision, "memory");
      try {
        answerRoots(a.client, () => [{ uri: "file:///a" }]);
        answerRoots(b.client, () => [{ uri: "file:///b" }]);
        assert.deepEqual(await listRoots(a.client), [{ uri: "file:///a" }]);
        assert.deepEqual(await listRoots(b.client), [{ uri: "file:///b" }]);
        assert.deepEqual(await listRoots(a.client), [{ uri: "file:///a" }]);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });
  }

  test("on 2026-07-28 every call asks, within that call's rounds", async () => {
    await withConnection("2026-07-28", "memory", { roots: {} }, async ({ client, wire }) => {
      let current: { uri: string; name?: string }[] = [project];
      const calls = answerRoots(client, () => current);
      assert.deepEqual(await listRoots(client), [project]);
      current = [docs];
      assert.deepEqual(await listRoots(client), [docs]);
      assert.equal(calls.count, 2);
      assert.deepEqual(
        rounds(wire).map((r) => Object.keys(r.inputRequests)),
        [["roots-1"], ["roots-1"]],
      );
    });
  });
});

describe("a malformed roots answer", () => {
  test("on 2025-11-25 the tool ends with a clear error", async () => {
    // The SDK client checks its own handler's result, so the bad answer is written onto the wire below it.
    const client = clientFor("2025-11-25", { roots: {} });
    await connectRewritingResults(client, makeInputsFactory().factory, () => ({ roots: [{ name: "no uri" }] }));
    try {
      answerRoots(client, () => [project]);
      const result = (await client.callTool({ name: "list_roots", arguments: {} })) as Record<string, any>;
      assert.equal(result.isError, true);
      assert.match(
        result.content[0].text,
        /^The client's answer to roots\/list is not valid: roots\.0\.uri: Invalid input: expected string, received undefined\.$/,
      );
    } finally {
      await client.close();
    }
  });

  test("on 2026-07-28 (an inputResponse) the tool ends with a clear error naming the root", async () => {
    const client = manualClient({ roots: {} });
    await connect(client, makeInputsFactory().factory, "2026-07-28", "memory");
    const call = (params: Partial<ManualCall>) => callWith(client)({ name: "list_roots", arguments: {}, ...params });
    try {
      const answers: [unknown, string][] = [
        [{ roots: [project, { name: "no uri" }] }, 'roots[1] has no string "uri".'],
        [{ roots: [{ uri: "file:///x", name: 7 }] }, "roots[0].name is not a string."],
        [{ roots: "file:///x" }, 'it has no "roots" array.'],
      ];
      // Each answer in a call of its own: a finished call answers any later state with its recorded result.
      for (const [answer, problem] of answers) {
        const { requestState } = await call({});
        const result = await call({ inputResponses: { "roots-1": answer }, requestState });
        assert.equal(result.isError, true);
        assert.equal(result.content[0].text, `The client's answer to roots/list is not valid: ${problem}`);
      }
    } finally {
      await client.close(); // no wire check: the wire holds invalid answers on purpose
    }
  });
});
