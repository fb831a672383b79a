// fileTokenStore on a real file system: 0700 folder, 0600 files from creation on, atomic writes (no
// temporary file left behind), one file per server, and unreadable files counted as no sign-in.
import { test } from "node:test";
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { configFolder, fileTokenStore, type ServerCredentials } from "../../src/client/index.js";
import { scratchFiles } from "../helpers/files.js";

const { dir } = scratchFiles("elicit-oauth-store-");
const credentials = (token: string): ServerCredentials => ({
  lastIssuer: "https://auth.example.com",
  issuers: { "https://auth.example.com": { client: { client_id: "c1" }, tokens: { access_token: token, token_type: "Bearer" } } },
});

test("the config folder: XDG_CONFIG_HOME when absolute, else ~/.config", () => {
  assert.equal(configFolder({ XDG_CONFIG_HOME: "/x/conf" }), "/x/conf/mcp-elicit");
  assert.equal(configFolder({ XDG_CONFIG_HOME: "relative/conf" }), join(homedir(), ".config", "mcp-elicit"));
  assert.equal(configFolder({}), join(homedir(), ".config", "mcp-elicit"));
});

test("saves with 0600 in a 0700 folder, even one that existed wider; nothing temporary is left", async () => {
  const folder = join(dir, "wide");
  mkdirSync(folder, { mode: 0o755 });
  chmodSync(folder, 0o755);
  const store = fileTokenStore({ dir: folder });
  await store.set("https://mcp.example.com/mcp", credentials("t1"));
  await store.set("https://mcp.example.com/mcp", credentials("t2"));
  assert.equal(statSync(folder).mode & 0o777, 0o700);
  const files = readdirSync(folder);
  assert.equal(files.length, 1);
  assert.match(files[0]!, /^[0-9a-f]{32}\.json$/);
  assert.equal(statSync(join(folder, files[0]!)).mode & 0o777, 0o600);
  assert.deepEqual(await store.get("https://mcp.example.com/mcp"), credentials("t2"));
  assert.match(readFileSync(join(folder, files[0]!), "utf8"), /"server": "https:\/\/mcp\.example\.com\/mcp"/);
});

test("one file per server; servers() lists them, delete() forgets one", async () => {
  const store = fileTokenStore({ dir: join(dir, "many") });
  await store.set("https://a.example/mcp", credentials("a"));
  await store.set("https://b.example/mcp", credentials("b"));
  assert.deepEqual((await store.servers()).sort(), ["https://a.example/mcp", "https://b.example/mcp"]);
  assert.equal(await store.delete("https://a.example/mcp"), true);
  assert.equal(await store.delete("https://a.example/mcp"), false);
  assert.equal(await store.get("https://a.example/mcp"), undefined);
  assert.deepEqual(await store.servers(), ["https://b.example/mcp"]);
});

test("a file that is not ours, or not JSON, counts as no sign-in", async () => {
  const folder = join(dir, "broken");
  const store = fileTokenStore({ dir: folder });
  await store.set("https://c.example/mcp", credentials("c"));
  const [file] = readdirSync(folder);
  writeFileSync(join(folder, file!), "{not json");
  assert.equal(await store.get("https://c.example/mcp"), undefined);
  writeFileSync(join(folder, file!), JSON.stringify({ server: "https://other.example/mcp", issuers: {} }));
  assert.equal(await store.get("https://c.example/mcp"), undefined);
  assert.deepEqual(await store.servers(), ["https://other.example/mcp"]);
  assert.deepEqual(await fileTokenStore({ dir: join(dir, "missing") }).servers(), []);
});

test("get() sees another process's save and delete at once, and what it returns is the caller's own copy", async () => {
  const folder = join(dir, "shared");
  const mine = fileTokenStore({ dir: folder });
  const theirs = fileTokenStore({ dir: folder });
  const server = "https://d.example/mcp";
  assert.equal(await mine.get(server), undefined);
  await theirs.set(server, credentials("first"));
  assert.deepEqual(await mine.get(server), credentials("first"));
  const copy = (await mine.get(server))!;
  copy.lastIssuer = "https://changed.example";
  assert.deepEqual(await mine.get(server), credentials("first"), "a change to a returned value stays the caller's");
  await theirs.set(server, credentials("refreshed"));
  assert.deepEqual(await mine.get(server), credentials("refreshed"));
  await theirs.delete(server);
  assert.equal(await mine.get(server), undefined);
});
