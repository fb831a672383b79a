// fileTokenStore: sign-ins kept in the user's config folder, one JSON file per MCP server
// ($XDG_CONFIG_HOME/mcp-elicit/oauth/, default ~/.config/mcp-elicit/oauth/). The folder is 0700 and
// every file 0600, created so from the start (never widened then narrowed), and written atomically
// (a temporary file in the same folder, then rename), so a crash never leaves half a token file.
// The folder must be a real directory of this user: a symlink planted at its path would otherwise
// have us chmod, and write tokens into, a folder somewhere else.
import { createHash, randomBytes } from "node:crypto";
import { constants, statSync } from "node:fs";
import { chmod, lstat, mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ServerCredentials, TokenStore } from "./token-store.js";
import { ElicitError } from "../../schema/errors.js";

export interface FileTokenStoreOptions {
  /** The folder (default: configFolder()/oauth). */
  dir?: string;
}

/** $XDG_CONFIG_HOME/mcp-elicit, or ~/.config/mcp-elicit (a relative XDG_CONFIG_HOME is ignored, as the XDG spec says). */
export function configFolder(env: NodeJS.ProcessEnv = process.env): string {
  const xdg = env.XDG_CONFIG_HOME;
  const base = xdg && xdg.startsWith("/") ? xdg : join(homedir(), ".config");
  return join(base, "mcp-elicit");
}

/** The file's name: a digest of the server URL (URLs hold characters no file name may). */
const fileFor = (server: string) => `${createHash("sha256").update(server).digest("hex").slice(0, 32)}.json`;

// O_NOFOLLOW and O_DIRECTORY exist on POSIX systems; elsewhere (Windows) they are 0 and the lstat
// check stands alone.
const NOFOLLOW = constants.O_NOFOLLOW ?? 0;
const DIRECTORY = constants.O_DIRECTORY ?? 0;

export class TokenFolderError extends ElicitError {
  constructor(dir: string, what: string) {
    super("token-folder-unsafe", `the token folder ${dir} ${what}; it must be a real directory (not a symbolic link) owned by you`);
  }
}

/** Refuses a folder that is a symlink, not a directory, or another user's (fstat, or the lstat of the path). */
function checkFolder(dir: string, stats: { isDirectory(): boolean; isSymbolicLink(): boolean; uid: number }): void {
  if (stats.isSymbolicLink()) throw new TokenFolderError(dir, "is a symbolic link");
  if (!stats.isDirectory()) throw new TokenFolderError(dir, "is not a directory");
  const uid = process.getuid?.();
  if (uid !== undefined && stats.uid !== uid) throw new TokenFolderError(dir, `belongs to another user (uid ${stats.uid})`);
}

interface FileContent extends ServerCredentials {
  server: string;
}

/** A file as last read: what it held, and what identifies that version (each save is a new inode; an edit by hand changes the size or time). */
interface ReadFile {
  version: string;
  content: FileContent | undefined;
}

const versionOf = (stats: { ino: number; size: number; mtimeMs: number }) => `${stats.ino}:${stats.size}:${stats.mtimeMs}`;

/** The store's memory of each file as last read, by file name. */
type LastRead = Map<string, ReadFile>;

export function fileTokenStore(options: FileTokenStoreOptions = {}): TokenStore & { dir: string } {
  const dir = options.dir ?? join(configFolder(), "oauth");
  // The SDK asks for the tokens before every request: a file unchanged since it was last read (one stat)
  // is not read and parsed again. Another process's save replaces the file, so it is seen at once.
  const lastRead: LastRead = new Map();
  return {
    dir,
    get: (server) => savedCredentials(dir, lastRead, server),
    set: (server, credentials) => saveCredentials(dir, server, credentials),
    delete: (server) => deleteCredentials(dir, server),
    servers: () => savedServers(dir),
  };
}

/** False when the folder does not exist (no sign-in yet); refuses one that is not a real directory of ours. */
async function folderReadable(dir: string): Promise<boolean> {
  try {
    checkFolder(dir, await lstat(dir));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return false;
    throw error;
  }
}

/** The folder made (0700) or checked, before a save. */
async function ensureFolder(dir: string): Promise<void> {
  // The clear refusal comes from lstat (a dangling symlink too); the O_NOFOLLOW open below closes the race.
  if (await folderReadable(dir)) {
    // Without O_NOFOLLOW (Windows, where a folder cannot be opened either) the lstat check is all there is.
    if (!NOFOLLOW) return chmod(dir, 0o700);
  } else {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    if (!NOFOLLOW) return;
  }
  const folder = await openFolder(dir);
  try {
    checkFolder(dir, await folder.stat());
    // mkdir's mode does not apply to a folder that already exists: say it again, on the folder we
    // opened (fchmod), never on whatever a symlink at the path would point to.
    await folder.chmod(0o700);
  } finally {
    await folder.close();
  }
}

/** The folder itself, never through a symlink (O_NOFOLLOW): a TokenFolderError when the path is not a directory of ours. */
async function openFolder(dir: string) {
  try {
    return await open(dir, constants.O_RDONLY | DIRECTORY | NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // ELOOP (EMLINK on FreeBSD): the path became a symlink since the lstat.
    if (code === "ELOOP" || code === "EMLINK") throw new TokenFolderError(dir, "is a symbolic link");
    if (code === "ENOTDIR") throw new TokenFolderError(dir, "is not a directory");
    throw error;
  }
}

/** What a token file holds, or undefined when there is none or it is not one of ours. */
async function readContent(dir: string, file: string): Promise<FileContent | undefined> {
  let text: string;
  try {
    text = await readFile(join(dir, file), "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as FileContent;
    // A file we cannot make sense of counts as no sign-in; the next save replaces it.
    return typeof value === "object" && value !== null && typeof value.server === "string" && typeof value.issuers === "object"
      ? value
      : undefined;
  } catch {
    return undefined;
  }
}

/** The store's get: the server's credentials, read again only when the file changed since the last read. */
async function savedCredentials(dir: string, lastRead: LastRead, server: string): Promise<ServerCredentials | undefined> {
  const file = fileFor(server);
  // "absent": no such file (a first full check found no folder or no file; a new file changes that).
  // Synchronous: a stat takes microseconds, where a trip through libuv's thread pool before every
  // request would add its wait to each call's latency on a busy machine.
  let version = "absent";
  try {
    version = versionOf(statSync(join(dir, file)));
  } catch {
    // No file (or no folder): "absent", checked in full below the first time.
  }
  const known = lastRead.get(file);
  let content: FileContent | undefined;
  if (known?.version === version) content = known.content && structuredClone(known.content);
  else {
    lastRead.delete(file);
    content = (await folderReadable(dir)) ? await readContent(dir, file) : undefined;
    // A save between the stat and the read leaves a version that the next stat no longer matches.
    lastRead.set(file, { version, content: content && structuredClone(content) });
  }
  if (!content || content.server !== server) return undefined;
  const { server: _server, ...credentials } = content;
  return credentials;
}

/** The store's set: written to a temporary file of its own, then renamed over the server's file. */
async function saveCredentials(dir: string, server: string, credentials: ServerCredentials): Promise<void> {
  await ensureFolder(dir);
  const target = join(dir, fileFor(server));
  const temp = join(dir, `.${fileFor(server)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
  // Created here (O_EXCL), never through a symlink (O_NOFOLLOW), 0600 from creation on.
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | NOFOLLOW, 0o600);
  try {
    await handle.writeFile(JSON.stringify({ server, ...credentials } satisfies FileContent, null, 2) + "\n");
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}

/** The store's delete: false when there was no sign-in for that server. */
async function deleteCredentials(dir: string, server: string): Promise<boolean> {
  if (!(await folderReadable(dir))) return false;
  const file = join(dir, fileFor(server));
  const content = await readContent(dir, fileFor(server));
  if (!content || content.server !== server) return false;
  await rm(file, { force: true });
  return true;
}

/** The store's servers: every server with a token file, in file-name order. */
async function savedServers(dir: string): Promise<string[]> {
  if (!(await folderReadable(dir))) return [];
  let files: string[];
  try {
    files = await readdir(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  const servers: string[] = [];
  for (const file of files.filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort()) {
    const content = await readContent(dir, file);
    if (content) servers.push(content.server);
  }
  return servers;
}
