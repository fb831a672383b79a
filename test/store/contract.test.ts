// One contract (store-contract.ts), on the stores that need no server: memoryStore, and sqliteStore on a
// real temporary file through each Node binding (better-sqlite3, node:sqlite). redisStore runs it on a real
// redis-server in redis-store.test.ts; bun:sqlite under Bun in bun-sqlite.test.ts; the Durable Object
// store and D1 in workerd in cloudflare.test.ts.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { memoryStore, sqliteStore, type SqliteBinding } from "../../src/store/index.js";
import { scratchFiles } from "../helpers/files.js";
import { storeContract } from "../helpers/store-contract.js";

const files = scratchFiles("mcp-elicit-store-");

storeContract({
  name: "memoryStore",
  async open() {
    const store = memoryStore();
    return { store, other: async () => store };
  },
});

for (const binding of ["better-sqlite3", "node:sqlite"] satisfies SqliteBinding[]) {
  storeContract({
    name: `sqliteStore on ${binding}`,
    async open() {
      const path = join(files.dir, `${randomBytes(6).toString("hex")}.db`);
      return { store: sqliteStore(path, { binding }), other: async () => sqliteStore(path, { binding }) };
    },
  });
}
