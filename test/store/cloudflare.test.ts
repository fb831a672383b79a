// The store contract (store-contract.ts) in real workerd, through miniflare: the Durable Object store
// (ElicitStoreObject on a SQLite-backed object, reached from Node through its stub with the same
// durableObjectStoreClient a Worker uses) and d1Store on a D1 binding. One workerd for the whole file.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { d1Store, durableObjectStoreClient, type D1Database, type DurableObjectStub } from "../../src/cloudflare/index.js";
import { waitFor } from "../helpers/deferred.js";
import { storeContract } from "./store-contract.js";

const D1_DATABASES = 10;
let mf: Miniflare;
let nextDatabase = 0;
let bundle: string;

before(async () => {
  const built = await build({
    entryPoints: [new URL("fixtures/store-worker.ts", import.meta.url).pathname],
    bundle: true,
    format: "esm",
    platform: "neutral",
    write: false,
  });
  bundle = built.outputFiles[0]!.text;
  mf = new Miniflare({
    modules: true,
    script: bundle,
    compatibilityDate: "2026-07-01",
    durableObjects: {
      STORE: { className: "ElicitStoreObject", useSQLite: true },
      QUICK: { className: "QuickSweepStoreObject", useSQLite: true },
    },
    // A database for each contract test, so each starts empty.
    d1Databases: Array.from({ length: D1_DATABASES }, (_, i) => `DB${i}`),
  });
  await mf.ready;
});
after(() => mf?.dispose());

/** A stub on the object named `name` of a binding, as a Worker's `env.STORE.get(env.STORE.idFromName(name))`. */
async function stub(binding: string, name: string): Promise<DurableObjectStub> {
  const namespace = (await mf.getDurableObjectNamespace(binding)) as unknown as {
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
  name: "d1Store in workerd",
  async open() {
    assert.ok(nextDatabase < D1_DATABASES, "a D1 binding is left for this test");
    const db = (await mf.getD1Database(`DB${nextDatabase++}`)) as unknown as D1Database;
    return { store: d1Store(db), other: async () => d1Store(db) };
  },
});

test("the Worker bundle of mcp-elicit/cloudflare's store imports nothing from node:", () => {
  assert.match(bundle, /ElicitStoreObject = class|class ElicitStoreObject/, "the bundle holds the store object");
  assert.doesNotMatch(bundle, /from\s*["']node:|require\(["']node:/);
});

test("the object's alarm deletes expired rows after a write, and sleeps when none are left", async () => {
  const object = await stub("QUICK", randomBytes(6).toString("hex"));
  const store = durableObjectStoreClient(object);
  const state = async () =>
    (await (await object.fetch("https://store/", { method: "GET", headers: {}, body: undefined as never })).json()) as {
      rows: number;
      alarm: number | null;
    };
  await store.set("brief", "v", 50);
  await store.set("also-brief", "v", 50);
  assert.equal((await state()).rows, 2);
  assert.notEqual((await state()).alarm, null, "a write set the alarm");
  await waitFor(async () => (await state()).rows === 0, { what: "the alarm to delete the expired rows" });
  await waitFor(async () => (await state()).alarm === null, { what: "no alarm left once no row is" });
});

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
