// The store contract (store-contract.ts) in real workerd, through miniflare: the Durable Object store
// (ElicitStoreObject on a SQLite-backed object and on a key-value one, reached from Node through its stub with the same
// durableObjectStoreClient a Worker uses) and d1Store on a D1 binding. One workerd for the whole file.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { d1Store, durableObjectStoreClient, type D1Database, type DurableObjectStub } from "../../src/cloudflare/index.js";
import { waitFor } from "../helpers/deferred.js";
import { storeContract } from "../helpers/store-contract.js";

const D1_DATABASES = 10;
let mf: Miniflare;
let nextDatabase = 0;
let bundle: string;

before(async () => {
  const built = await build({
    entryPoints: [fileURLToPath(new URL("fixtures/store-worker.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    // As a Worker with nodejs_compat builds: node: built-ins stay imports, and what the store does not
    // use is dropped (package.json's sideEffects), so the store's bundle must end up with none of them.
    external: ["node:*"],
    write: false,
  });
  bundle = built.outputFiles[0]!.text;
  const example = await build({
    entryPoints: [fileURLToPath(new URL("../../examples/store-worker.ts", import.meta.url))],
    bundle: true,
    format: "esm",
    platform: "neutral",
    external: ["node:*"],
    write: false,
  });
  mf = new Miniflare({
    workers: [
      {
        name: "stores",
        modules: true,
        script: bundle,
        compatibilityDate: "2026-07-01",
        durableObjects: {
          STORE: { className: "ElicitStoreObject", useSQLite: true },
          QUICK: { className: "QuickSweepStoreObject", useSQLite: true },
          KV_STORE: { className: "ElicitStoreObject" }, // not SQLite-backed: the key-value API
          QUICK_KV: { className: "QuickSweepStoreObject" },
        },
        // A database for each contract test, so each starts empty.
        d1Databases: Array.from({ length: D1_DATABASES }, (_, i) => `DB${i}`),
      },
      {
        name: "example",
        modules: true,
        script: example.outputFiles[0]!.text,
        compatibilityDate: "2026-07-01",
        durableObjects: { ELICIT_STORE: { className: "ElicitStoreObject", useSQLite: true } },
        d1Databases: ["DB"],
      },
    ],
  });
  await mf.ready;
});
after(() => mf?.dispose());

/** A stub on the object named `name` of a binding, as a Worker's `env.STORE.get(env.STORE.idFromName(name))`. */
async function stub(binding: string, name: string): Promise<DurableObjectStub> {
  const namespace = (await mf.getDurableObjectNamespace(binding, "stores")) as unknown as {
    idFromName(name: string): unknown;
    get(id: unknown): DurableObjectStub;
  };
  return namespace.get(namespace.idFromName(name));
}

storeContract({
  name: "durableObjectStoreClient over ElicitStoreObject in workerd",
  async open() {
    const name = randomBytes(6).toString("hex"); // a fresh object for each test
    return {
      store: durableObjectStoreClient(await stub("STORE", name)),
      other: async () => durableObjectStoreClient(await stub("STORE", name)),
    };
  },
});

storeContract({
  name: "durableObjectStoreClient over ElicitStoreObject on key-value storage in workerd",
  async open() {
    const name = randomBytes(6).toString("hex");
    return {
      store: durableObjectStoreClient(await stub("KV_STORE", name)),
      other: async () => durableObjectStoreClient(await stub("KV_STORE", name)),
    };
  },
});

storeContract({
  name: "d1Store in workerd",
  async open() {
    assert.ok(nextDatabase < D1_DATABASES, "a D1 binding is left for this test");
    const db = (await mf.getD1Database(`DB${nextDatabase++}`, "stores")) as unknown as D1Database;
    return { store: d1Store(db), other: async () => d1Store(db) };
  },
});

test("the Worker bundle of mcp-elicit/cloudflare's store imports nothing from node:", () => {
  assert.match(bundle, /ElicitStoreObject = class|class ElicitStoreObject/, "the bundle holds the store object");
  assert.doesNotMatch(bundle, /from\s*["']node:|require\(["']node:/);
});

for (const binding of ["QUICK", "QUICK_KV"]) {
  test(`the object's alarm deletes expired entries after a write, and sleeps when none are left (${binding})`, async () => {
    const object = await stub(binding, randomBytes(6).toString("hex"));
    const store = durableObjectStoreClient(object);
    const state = async () =>
      (await (await object.fetch("https://store/", { method: "GET", headers: {}, body: undefined as never })).json()) as {
        rows: number;
        alarm: number | null;
      };
    // Long enough to be seen before they expire on a loaded machine (at 50 ms the alarm had sometimes run already).
    await store.set("brief", "v", 2_000);
    await store.set("also-brief", "v", 2_000);
    const written = await state();
    assert.equal(written.rows, 2);
    assert.notEqual(written.alarm, null, "a write set the alarm");
    await waitFor(async () => (await state()).rows === 0, { what: "the alarm to delete the expired entries", timeoutMs: 30_000 });
    await waitFor(async () => (await state()).alarm === null, { what: "no alarm left once no entry is", timeoutMs: 30_000 });
  });
}

test("a malformed request gets a 400 naming the field and rule, and the object keeps serving", async () => {
  const object = await stub("STORE", randomBytes(6).toString("hex"));
  const send = (body: string) => object.fetch("https://store/", { method: "POST", headers: {}, body });
  const refused = [
    ["not json", "the body must be JSON"],
    ['{"op":"drop"}', "op must be one of"],
    ['{"op":"add","key":"k","value":"v","ttlMs":-1}', "ttlMs must be a positive whole number"],
    ['{"op":"set","key":1,"value":"v","ttlMs":5}', "key must be a string"],
  ];
  for (const [body, reason] of refused) {
    const response = await send(body!);
    assert.equal(response.status, 400, body);
    assert.match(((await response.json()) as { error: string }).error, new RegExp(reason!));
  }
  const store = durableObjectStoreClient(object);
  assert.equal(await store.add("k", "v", 60_000), true);
  assert.equal(await store.get("k"), "v");
});

test("examples/store-worker.ts charges an order once across requests, on the Durable Object and on D1", async () => {
  const example = (await mf.getWorker("example")) as unknown as { fetch(url: string): Promise<Response> };
  const text = async (path: string) => (await example.fetch(`https://worker.example${path}`)).text();
  for (const where of ["/", "/d1"]) {
    assert.equal(await text(`${where}?order=7`), "charged order 7\n", where);
    assert.equal(await text(`${where}?order=7`), "order 7 was charged already\n", where);
    assert.equal(await text(`${where}?order=8`), "charged order 8\n", where);
  }
});
