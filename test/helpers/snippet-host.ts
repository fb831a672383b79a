// A host launched as a configuration snippet says: the `command` and `args` of one server entry that
// `elicit gateway --print-config` printed, started over stdio by an SDK v2 client on 2025-11-25 that
// declares forms and answers the travel server's two booking forms itself. It calls `book_trip` and
// returns the result's text.
import { Client } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { Readable } from "node:stream";

export interface ServerEntry {
  command: string;
  args: string[];
}

/** The one server entry of a JSON snippet (`{"mcpServers": {NAME: ENTRY}}` or `{"servers": ...}`). */
export function entryOf(snippet: string): ServerEntry {
  const config = JSON.parse(snippet) as { mcpServers?: Record<string, ServerEntry>; servers?: Record<string, ServerEntry> };
  const entries = Object.values(config.mcpServers ?? config.servers ?? {});
  if (entries.length !== 1) throw new Error(`expected one server entry in ${snippet}`);
  return entries[0]!;
}

const ANSWERS: Array<[RegExp, Record<string, unknown>]> = [
  [/Confirm your Barcelona/i, { confirmBooking: true, seatPreference: "window", roomType: "sea view" }],
  [/contact/i, { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" }],
];

/** Starts `entry` as a host would (in `cwd`, with `env`), books the Barcelona trip, and returns the text of the result. */
export async function bookTripThrough(
  entry: ServerEntry,
  options: { cwd: string; env: Record<string, string>; timeoutMs: number; onStderr?: (text: string) => void },
): Promise<{ text: string; asked: string[] }> {
  const asked: string[] = [];
  const client = new Client({ name: "snippet-host", version: "1.0.0" }, {
    capabilities: { elicitation: { form: {} } },
    supportedProtocolVersions: ["2025-11-25"],
  } as never);
  client.setRequestHandler("elicitation/create", async (request) => {
    const message = String((request.params as { message?: unknown }).message);
    asked.push(message);
    const content = ANSWERS.find(([pattern]) => pattern.test(message))?.[1];
    return (content ? { action: "accept", content } : { action: "decline" }) as never;
  });
  const transport = new StdioClientTransport({
    command: entry.command,
    args: entry.args,
    cwd: options.cwd,
    env: options.env,
    stderr: "pipe",
  });
  (transport.stderr as Readable | null)?.on("data", (chunk: Buffer) => options.onStderr?.(String(chunk)));
  try {
    await client.connect(transport, { timeout: options.timeoutMs });
    const args = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
    const result = (await client.callTool({ name: "book_trip", arguments: args }, { timeout: options.timeoutMs })) as {
      content: Array<{ type: string; text?: string }>;
    };
    return { text: result.content.map((c) => c.text ?? "").join("\n"), asked };
  } finally {
    await client.close();
  }
}
