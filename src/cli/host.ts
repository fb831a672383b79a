// The host behind `elicit call`, `connect` and `demo`: one SDK Client with elicitation, sampling and
// roots attached, connected to a server by Streamable HTTP (--url) or stdio (-- command args…).
import { Client, StreamableHTTPClientTransport, type Transport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { attachElicitation, type ElicitationHandle, type ElicitationMode } from "../client/attach.js";
import type { ModelProvider } from "../client/providers/provider.js";
import { attachRoots, type RootsHandle } from "../client/roots.js";
import { attachSampling } from "../client/sampling.js";
import type { ElicitationUI, SamplingUI } from "../client/ui.js";
import { providerFromEnv } from "../client/providers/openai.js";
import { PROTOCOL_REVISIONS, type ProtocolRevision } from "../schema/types.js";
import { HostError, reportFailure } from "./exit.js";

export { HostError };

export type ServerTarget = { url: string } | { command: string; args: string[] };
export type ProtocolChoice = ProtocolRevision | "auto";

export interface HostOptions {
  target: ServerTarget;
  ui: ElicitationUI & SamplingUI;
  modes: ElicitationMode[];
  protocol: ProtocolChoice;
  roots: string[];
  provider?: ModelProvider;
  /** Where a stdio server's stderr goes (default: ours). */
  serverStderr?: "inherit" | "ignore" | "pipe";
}

export interface Host {
  client: Client;
  elicitation: ElicitationHandle;
  roots: RootsHandle;
  /** The revision the connection runs on. */
  protocol: string;
  close(): Promise<void>;
}

export const CLIENT_INFO = { name: "elicit", version: "0.1.0" };

function clientOptions(protocol: ProtocolChoice): Record<string, unknown> {
  switch (protocol) {
    case "auto":
      return { versionNegotiation: { mode: "auto" } };
    case "2026-07-28":
      return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
    case "2025-11-25":
      return { supportedProtocolVersions: ["2025-11-25"] };
    case "2025-06-18":
      return { supportedProtocolVersions: ["2025-06-18"] };
  }
}

export function parseProtocol(value: string): ProtocolChoice {
  if (value === "auto" || (PROTOCOL_REVISIONS as readonly string[]).includes(value)) return value as ProtocolChoice;
  throw new HostError(`--protocol must be auto or one of ${PROTOCOL_REVISIONS.join(", ")}; got ${JSON.stringify(value)}.`);
}

export function parseModes(value: string): ElicitationMode[] {
  const modes = value.split(",").map((m) => m.trim()).filter(Boolean);
  const bad = modes.filter((m) => m !== "form" && m !== "url");
  if (bad.length || modes.length === 0) throw new HostError(`--modes takes form, url or form,url; got ${JSON.stringify(value)}.`);
  return [...new Set(modes)] as ElicitationMode[];
}

function transportFor(target: ServerTarget, stderr: HostOptions["serverStderr"]): Transport {
  if ("url" in target) {
    let url: URL;
    try {
      url = new URL(target.url);
    } catch {
      throw new HostError(`--url is not a URL: ${JSON.stringify(target.url)}.`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") throw new HostError(`--url must be http: or https:, got ${url.protocol}`);
    return new StreamableHTTPClientTransport(url);
  }
  return new StdioClientTransport({ command: target.command, args: target.args, stderr: stderr ?? "inherit" });
}

const describeTarget = (target: ServerTarget) => ("url" in target ? target.url : [target.command, ...target.args].join(" "));

export async function openHost(options: HostOptions): Promise<Host> {
  const client = new Client(CLIENT_INFO, { capabilities: {}, ...clientOptions(options.protocol) } as never);
  const elicitation = attachElicitation(client, { ui: options.ui, modes: options.modes });
  attachSampling(client, { ui: options.ui, ...(options.provider ? { provider: options.provider } : {}) });
  let roots: RootsHandle;
  try {
    roots = attachRoots(client, options.roots);
  } catch (error) {
    throw new HostError((error as Error).message);
  }
  try {
    await client.connect(transportFor(options.target, options.serverStderr));
  } catch (error) {
    if (error instanceof HostError) throw error;
    await client.close().catch(() => {});
    throw new HostError(`Could not connect to ${describeTarget(options.target)}: ${(error as Error).message}`);
  }
  const protocol = client.getNegotiatedProtocolVersion() ?? "unknown";
  if (options.protocol !== "auto" && protocol !== options.protocol) {
    await client.close().catch(() => {});
    throw new HostError(`The server runs ${protocol}, not the pinned ${options.protocol}.`);
  }
  return { client, elicitation, roots, protocol, close: () => client.close() };
}

/** What a command gives to open its host: the options as typed, checked here. */
export interface HostRequest {
  target: ServerTarget;
  ui: ElicitationUI & SamplingUI;
  modes: string;
  protocol: string;
  roots: string[];
}

/**
 * Opens a host (with the model from the environment, if any), runs `body`, closes the host; any
 * failure, including in `prepare`, is printed and becomes the exit code.
 */
export async function withHost(prepare: () => Promise<HostRequest>, body: (host: Host, provider: ModelProvider | undefined) => Promise<number>): Promise<number> {
  let host: Host | undefined;
  try {
    const request = await prepare();
    const provider = providerFromEnv();
    host = await openHost({
      target: request.target,
      ui: request.ui,
      modes: parseModes(request.modes),
      protocol: parseProtocol(request.protocol),
      roots: request.roots,
      ...(provider ? { provider } : {}),
    });
    return await body(host, provider);
  } catch (error) {
    return reportFailure(error);
  } finally {
    await host?.close().catch(() => {});
  }
}
