// A reply lost after the server acted (2026-07-28, finding 4 of issue 40): a real HTTP proxy on
// 127.0.0.1 forwards a round to a real Streamable HTTP server, lets the server answer it in full, and
// hands the client a 502 instead. The SDK's client with resendingFetch sends the same round again, byte
// for byte; the server's call ledger answers it with what that round led to (the next question, or the
// call's result), so the person's answer is not lost and the booking is made once. Shown with the
// handler held in memory (warm rounds), without warm rounds (every round replayed from its sealed
// state), and with the resend landing on another member of the fleet (same key, same store).
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { attachElicitation } from "../../src/client/attach.js";
import { resendingFetch, type ResendEvent } from "../../src/client/resend.js";
import { choice, form, text } from "../../src/schema/builders.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation, type WarmRoundOptions } from "../../src/server/index.js";
import { memoryStore } from "../../src/store/memory.js";
import { RecordingUI } from "../helpers/recording-ui.js";
import { listenLocal } from "../helpers/local-server.js";

const KEY = "5e".repeat(32);
/** Every booking any member made, as a hotel's database would hold them. */
let bookings = 0;

/** A member serving book_room: which room (question 1), the booking (a step), a note (question 2). */
async function member(store = memoryStore(), warmRounds?: WarmRoundOptions | false): Promise<HttpServerHandle> {
  const kit = createElicitation({ stateKey: KEY, store, ...(warmRounds !== undefined ? { warmRounds } : {}) });
  return serveHttp(
    () => {
      const server = new McpServer({ name: "hotel", version: "1.0.0" });
      kit.registerTool(server, "book_room", { description: "Book a room", inputSchema: z.object({}) }, async (_args, ctx) => {
        const room = await ctx.elicit("Which room?", form({ room: choice({ single: "Single", double: "Double" }) }));
        if (room.action !== "accept") return { content: [{ type: "text", text: room.action }] };
        const booking = await ctx.step("book", () => `B-${++bookings}`);
        const note = await ctx.elicit("A note for the hotel?", form({ note: text() }));
        const said = note.action === "accept" ? note.content.note : `(${note.action})`;
        return { content: [{ type: "text", text: `booked ${booking}: ${room.content.room}, note: ${said}` }] };
      });
      return server;
    },
    { host: "127.0.0.1", port: 0 },
  );
}

let warm: HttpServerHandle;
let other: HttpServerHandle;
let cold: HttpServerHandle;
let proxy: Awaited<ReturnType<typeof listenLocal>> | undefined;
let proxyUrl: URL;

/** Where the proxy sends traffic, which POST's reply it drops, and where the resend of it goes. */
interface Plan {
  to: HttpServerHandle;
  drop: (body: string) => boolean;
  resendTo?: HttpServerHandle;
}
let plan: Plan;
/** Every POST body that reached the proxy, in order. */
let seen: string[] = [];
/** The body of each reply the server gave and the client never got. */
let dropped: string[] = [];
let droppedBody: string | undefined;

before(async () => {
  const shared = memoryStore();
  warm = await member(shared);
  other = await member(shared);
  cold = await member(memoryStore(), false);
  proxy = await listenLocal((req, res) => void forward(req, res));
  proxyUrl = proxy.url;
});
after(async () => {
  proxy?.close();
  await Promise.all([warm?.close(), other?.close(), cold?.close()]);
});

async function forward(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const body = Buffer.concat(chunks).toString();
  let drop = false;
  let to = plan.to;
  if (req.method === "POST") {
    seen.push(body);
    if (droppedBody === undefined && plan.drop(body)) drop = true;
    else if (body === droppedBody) to = plan.resendTo ?? plan.to;
  }
  const upstream = httpRequest(new URL(req.url!, to.url), { method: req.method, headers: req.headers }, (reply) => {
    if (!drop) {
      res.writeHead(reply.statusCode!, reply.headers);
      return void reply.pipe(res);
    }
    // The server answered in full; the gateway loses the answer and says 502.
    let answer = "";
    reply.on("data", (chunk: Buffer) => (answer += chunk));
    reply.on("end", () => {
      dropped.push(answer);
      droppedBody = body;
      res.writeHead(502, { "content-type": "text/plain" }).end("bad gateway");
    });
  });
  upstream.on("error", () => req.socket.destroy());
  upstream.end(body);
}

/** A client through the proxy, pinned to 2026-07-28, whose person picks a double room and leaves a note. */
async function connect() {
  const events: ResendEvent[] = [];
  const client = new Client({ name: "host", version: "1.0.0" }, { versionNegotiation: { mode: { pin: "2026-07-28" } } } as never);
  const ui = new RecordingUI([
    { action: "accept", content: { room: "double" } },
    { action: "accept", content: { note: "a quiet one, please" } },
  ]);
  const handle = attachElicitation(client, { ui });
  const fetch = resendingFetch({ onResend: (e) => events.push(e), initialDelayMs: 20, maxDelayMs: 200 });
  await client.connect(new StreamableHTTPClientTransport(proxyUrl, { fetch }));
  const book = async () => (await handle.callTool({ name: "book_room", arguments: {} }, { timeout: 30_000 })) as CallToolResult;
  return { client, ui, events, book };
}

const textOf = (result: CallToolResult) => (result.content[0] as { text: string }).text;
/** The round answering question 1 (the room), and the one answering question 2 (the note). */
const answersRoom = (body: string) => body.includes('"requestState"') && body.includes('"double"') && !body.includes('"note"');
const answersNote = (body: string) => body.includes('"requestState"') && body.includes('"note"');

const where = {
  "warm (the handler held in memory)": () => ({ to: warm }),
  "cold (warmRounds: false, replayed from the sealed state)": () => ({ to: cold }),
  "the resend on another member (same key and store)": () => ({ to: warm, resendTo: other }),
};

for (const [name, route] of Object.entries(where)) {
  describe(`a reply lost after the server acted, ${name}`, () => {
    for (const [lost, drop, acted] of [
      ["the next question", answersRoom, /A note for the hotel\?/],
      ["the call's result", answersNote, /booked B-\d+: double, note: a quiet one, please/],
    ] as const) {
      test(`the lost reply was ${lost}: the same round again gets it, one booking, no answer lost`, { timeout: 60_000 }, async () => {
        seen = [];
        dropped = [];
        droppedBody = undefined;
        plan = { ...route(), drop };
        const before = bookings;
        const { client, ui, events, book } = await connect();
        try {
          const result = await book();
          assert.equal(result.isError, undefined, textOf(result));
          assert.match(textOf(result), /^booked B-\d+: double, note: a quiet one, please$/);
          assert.equal(bookings - before, 1, "one booking");
          assert.equal(dropped.length, 1, "one reply was lost");
          assert.match(dropped[0]!, acted, "after the server had acted on the round");
          assert.deepEqual(
            events.map((e) => e.reason),
            ["HTTP 502"],
          );
          const rounds = seen.filter((b) => b.includes('"requestState"'));
          assert.equal(rounds.filter((b) => b === droppedBody).length, 2, "the lost round was sent again, byte for byte");
          assert.deepEqual(
            ui.forms.map((f) => f.request.message),
            ["Which room?", "A note for the hotel?"],
            "the person was asked each question once",
          );
        } finally {
          await client.close();
        }
      });
    }
  });
}
