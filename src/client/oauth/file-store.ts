// fileTokenStore: sign-ins kept in the user's config folder, one JSON file per MCP server
// ($XDG_CONFIG_HOME/mcp-elicit/oauth/, default ~/.config/mcp-elicit/oauth/). The folder is 0700 and
// every file 0600, created so from the start (never widened then narrowed), and written atomically
// (a temporary file in the same folder, then rename), so a crash never leaves half a token file.
import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, open, readdir, readFile, rename, rm } from "node:fs/promises";
import { homedir } from "node:os";
import { join } from "node:path";
import type { ServerCredentials, TokenStore } from "./token-store.js";

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

interface FileContent extends ServerCredentials {
  server: string;
}

export function fileTokenStore(options: FileTokenStoreOptions = {}): TokenStore & { dir: string } {
  const dir = options.dir ?? join(configFolder(), "oauth");

  async function ensureDir(): Promise<void> {
    await mkdir(dir, { recursive: true, mode: 0o700 });
    // mkdir's mode does not apply to a folder that already exists (or to its parents): say it again.
    await chmod(dir, 0o700);
  }

  async function read(file: string): Promise<FileContent | undefined> {
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

  return {
    dir,
    async get(server) {
      const content = await read(fileFor(server));
      if (!content || content.server !== server) return undefined;
      const { server: _server, ...credentials } = content;
      return credentials;
    },
    async set(server, credentials) {
      await ensureDir();
      const target = join(dir, fileFor(server));
      const temp = join(dir, `.${fileFor(server)}.${process.pid}.${randomBytes(6).toString("hex")}.tmp`);
      // "wx": never follows or reuses a file someone put there; 0600 from creation on.
      const handle = await open(temp, "wx", 0o600);
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
    },
    async delete(server) {
      const file = join(dir, fileFor(server));
      const content = await read(fileFor(server));
      if (!content || content.server !== server) return false;
      await rm(file, { force: true });
      return true;
    },
    async servers() {
      let files: string[];
      try {
        files = await readdir(dir);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
        throw error;
      }
      const servers: string[] = [];
      for (const file of files.filter((f) => f.endsWith(".json") && !f.startsWith(".")).sort()) {
        const content = await read(file);
        if (content) servers.push(content.server);
      }
      return servers;
    },
  };
}
