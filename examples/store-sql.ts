// One SQL store over several SQLite bindings: sqliteStore(path) opens a file with the one this runtime has,
// sqlStore(driver) takes a database you opened. Run: npx tsx examples/store-sql.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { betterSqlite3Driver, sqliteStore, sqlStore } from "mcp-elicit/store";

const dir = mkdtempSync(join(tmpdir(), "stores-"));

//#region sqliteStore-binding
const file = sqliteStore(join(dir, "state.db"), { binding: "node:sqlite" }); // Node's own SQLite: no native addon
await file.set("greeting", "hello", 60_000);
console.log(await file.get("greeting"));
await file.close();
//#endregion sqliteStore-binding

//#region sqlStore
const db = new Database(":memory:"); // any driver: betterSqlite3Driver, nodeSqliteDriver, bunSqliteDriver, d1Driver
const store = sqlStore(betterSqlite3Driver(db));
console.log(await store.add("claim:order-7", "worker-a", 60_000)); // atomic: exactly one caller wins
console.log(await store.add("claim:order-7", "worker-b", 60_000));
console.log(await store.swap("claim:order-7", "worker-a", "done", 60_000)); // replaced only while unchanged
await store.close(); // closes the database too
//#endregion sqlStore

rmSync(dir, { recursive: true, force: true });
// -> hello
// -> true
// -> false
// -> true
