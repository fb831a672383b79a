// fileTokenStore refuses a token folder that is not a real directory of this user, on a real file
// system: a symlink planted at the folder's path (to another folder, or dangling), a plain file, and
// (when the tests run as root, who can make one) another user's folder. Nothing is chmod-ed, written
// or read through it; the folder a symlink points to keeps its mode and gets no token file.
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  chmodSync,
  chownSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { fileTokenStore, type ServerCredentials } from "../../src/client/index.js";
import { scratchFiles } from "../helpers/files.js";

const { dir } = scratchFiles("elicit-oauth-folder-");
const SERVER = "https://mcp.example.com/mcp";
const credentials: ServerCredentials = {
  lastIssuer: "https://auth.example.com",
  issuers: { "https://auth.example.com": { client: { client_id: "c1" }, tokens: { access_token: "secret-token", token_type: "Bearer" } } },
};

/** The refusal, naming the path and the rule. */
const refusal = (path: string, what: string) =>
  new RegExp(
    `the token folder ${path.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")} ${what}; it must be a real directory \\(not a symbolic link\\) owned by you$`,
  );

/** A folder elsewhere, 0755, and a symlink to it where the token folder should be. */
function planted(name: string) {
  const target = join(dir, `${name}-elsewhere`);
  mkdirSync(target);
  chmodSync(target, 0o755);
  const link = join(dir, `${name}-oauth`);
  symlinkSync(target, link, "dir");
  return { target, link };
}

test("a symlink at the token folder's path: saving is refused, the folder it points to keeps its mode and gets no file", async () => {
  const { target, link } = planted("save");
  const store = fileTokenStore({ dir: link });
  await assert.rejects(store.set(SERVER, credentials), (error: Error) => {
    assert.equal(error.name, "TokenFolderError");
    assert.match(error.message, refusal(link, "is a symbolic link"));
    return true;
  });
  assert.equal(statSync(target).mode & 0o777, 0o755);
  assert.deepEqual(readdirSync(target), []);
  assert.ok(lstatSync(link).isSymbolicLink(), "the symlink is left as it was");
});

test("a symlink at the token folder's path: credentials planted behind it are not read, listed or deleted", async () => {
  const { target, link } = planted("read");
  // What an attacker would like us to use: their file, under the name we would look for.
  await fileTokenStore({ dir: target }).set(SERVER, credentials);
  const [file] = readdirSync(target);
  const store = fileTokenStore({ dir: link });
  await assert.rejects(store.get(SERVER), refusal(link, "is a symbolic link"));
  await assert.rejects(store.servers(), refusal(link, "is a symbolic link"));
  await assert.rejects(store.delete(SERVER), refusal(link, "is a symbolic link"));
  assert.deepEqual(readdirSync(target), [file]);
});

test("a dangling symlink, or a plain file, at the token folder's path: refused, nothing created", async () => {
  const nowhere = join(dir, "not-there");
  const dangling = join(dir, "dangling-oauth");
  symlinkSync(nowhere, dangling, "dir");
  await assert.rejects(fileTokenStore({ dir: dangling }).set(SERVER, credentials), refusal(dangling, "is a symbolic link"));
  assert.equal(existsSync(nowhere), false);
  const plain = join(dir, "plain-oauth");
  writeFileSync(plain, "not a folder");
  await assert.rejects(fileTokenStore({ dir: plain }).set(SERVER, credentials), refusal(plain, "is not a directory"));
  assert.equal(readFileSync(plain, "utf8"), "not a folder");
});

test(
  "another user's folder is refused",
  { skip: process.getuid?.() !== 0 && "only root can make a folder owned by someone else" },
  async () => {
    const theirs = join(dir, "theirs-oauth");
    mkdirSync(theirs, { mode: 0o755 });
    chmodSync(theirs, 0o755);
    chownSync(theirs, 1, 1);
    await assert.rejects(fileTokenStore({ dir: theirs }).set(SERVER, credentials), refusal(theirs, "belongs to another user \\(uid 1\\)"));
    assert.equal(statSync(theirs).mode & 0o777, 0o755);
    assert.deepEqual(readdirSync(theirs), []);
  },
);

test("a symlink planted inside the folder under a token file's name is replaced, not written through", async () => {
  const folder = join(dir, "inside-oauth");
  const store = fileTokenStore({ dir: folder });
  await store.set(SERVER, credentials);
  const [file] = readdirSync(folder);
  const outside = join(dir, "inside-target.txt");
  writeFileSync(outside, "untouched");
  const path = join(folder, file!);
  rmSync(path);
  symlinkSync(outside, path);
  await store.set(SERVER, credentials);
  assert.equal(readFileSync(outside, "utf8"), "untouched");
  assert.ok(lstatSync(path).isFile());
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.deepEqual(await store.get(SERVER), credentials);
});
