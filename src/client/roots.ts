// attachRoots: the directories the person gives a server, as file:// roots, changeable at run time.
import { statSync } from "node:fs";
import { basename, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Client, ListRootsResult, Root } from "@modelcontextprotocol/client";
import type { Attached, Forward } from "./attached.js";

export type RootInput = string | { path: string; name?: string };

export interface RootsHandle extends Attached {
  /** The roots as sent to servers. */
  list(): Root[];
  /** Adds a directory (must exist); tells the server on 2025-era connections. Returns the root. */
  add(dir: RootInput): Promise<Root>;
  /** Removes a root by directory path or file:// URI; false if it was not there. */
  remove(dirOrUri: string): Promise<boolean>;
}

/** Turns a directory into a root, with a clear error when it is not a directory. */
export function toRoot(input: RootInput): Root {
  const { path, name } = typeof input === "string" ? { path: input, name: undefined } : input;
  const abs = resolve(path);
  let isDir = false;
  try {
    isDir = statSync(abs).isDirectory();
  } catch {
    throw new Error(`Root ${JSON.stringify(path)}: no such directory (${abs}).`);
  }
  if (!isDir) throw new Error(`Root ${JSON.stringify(path)}: not a directory (${abs}).`);
  return { uri: pathToFileURL(abs).href, name: name ?? (basename(abs) || abs) };
}

const uriOf = (dirOrUri: string) =>
  dirOrUri.startsWith("file:") ? pathToFileURL(fileURLToPath(dirOrUri)).href : pathToFileURL(resolve(dirOrUri)).href;

/**
 * Declares the roots capability (with listChanged) and answers roots/list. Call before connect.
 *
 * @example
 * ```ts region=examples/client-basics.ts#attach
 * const client = new Client({ name: "host", version: "1.0.0" });
 * const elicitation = attachElicitation(client, { ui, modes: ["form"] });
 * attachSampling(client, { ui }); // add `provider: providerFromEnv()` (mcp-elicit/openai) to ask a real model
 * attachRoots(client, [{ path: trips, name: "Trips" }]);
 * ```
 */
export function attachRoots(client: Client, initial: RootInput[] = [], options: { forward?: Forward } = {}): RootsHandle {
  const roots = new Map<string, Root>();
  for (const r of initial.map(toRoot)) roots.set(r.uri, r);
  client.registerCapabilities({ roots: { listChanged: true } });
  client.setRequestHandler("roots/list", async (request, ctx) => {
    const question = { method: "roots/list", params: request.params ?? {}, id: ctx.mcpReq.id };
    // The other client's answer is passed on as it came, typed as the result it stands for (the SDK
    // checks no roots/list result, ours included).
    const forwarded = (await options.forward?.(question, ctx.mcpReq.signal)) as ListRootsResult | undefined;
    return forwarded ?? { roots: [...roots.values()] };
  });

  // 2026-07-28 has no list_changed notification: servers ask for roots in each call instead.
  const changed = async () => {
    const v = client.getNegotiatedProtocolVersion();
    if (v !== undefined && v < "2026-07-28" && client.getServerCapabilities() !== undefined) await client.sendRootsListChanged();
  };

  return {
    detach: () => client.removeRequestHandler("roots/list"),
    list: () => [...roots.values()],
    async add(dir) {
      const root = toRoot(dir);
      roots.set(root.uri, root);
      await changed();
      return root;
    },
    async remove(dirOrUri) {
      const removed = roots.delete(uriOf(dirOrUri));
      if (removed) await changed();
      return removed;
    },
  };
}
