// One contract (store-contract.ts), on the stores that need no server: memoryStore and sqliteStore on a
// real temporary file. redisStore runs it on a real redis-server in redis-store.test.ts.
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { memoryStore, sqliteStore } from "../../src/store/index.js";
import { scratchFiles } from "../helpers/files.js";
import { storeContract } from "./store-contract.js";

const files = scratchFiles("mcp-elicit-store-");

storeContract({
  name: "memoryStore",
  async open() {
    const store = memoryStore();
    return { store, other: async () => store };
  },
});

storeContract({
  name: "sqliteStore",
  async open() {
    const path = join(files.dir, `${randomBytes(6).toString("hex")}.db`);
    return { store: sqliteStore(path), other: async () => sqliteStore(path) };
  },
});
