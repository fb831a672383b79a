// `elicit gateway --ui app` in front of the travel server, launched over stdio by an SDK host that renders
// MCP Apps and declares no elicitation (as Claude Desktop does). The host plays the kit's form app: the
// question of book_trip arrives as the tool's result, `_meta["mcp-elicit.app"]`, the host answers it with
// the app-only tool elicit_answer, and the call ends with the booking; a decline books nothing. A state is
// taken once, for its own question: used again, for another tool or another key, it is refused (-32602).
import { after, describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Readable } from "node:stream";
import { ProtocolError, type CallToolResult } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import type { AppAsk } from "../../src/server/apps/app-result.js";
import { ANSWER_TOOL, APP_META_KEY, APP_MIME_TYPE, FORM_APP_URI, UI_EXTENSION } from "../../src/server/apps/ui-extension.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { BIN, CLI_TEST } from "../helpers/cli.js";
import { clientFor } from "../helpers/mcp.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { watchText } from "../helpers/stream-text.js";
import { bookingAnswer, textOf, TRIP } from "../helpers/travel-page.js";

const ENV = { ...process.env, ...NO_MODEL_ENV } as Record<string, string>;
const APP_HOST = { extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };
const CALL = { timeout: 120_000 };
const BOOKING = { ...TRIP, flightId: "BCN-11" };

const closers: Array<() => Promise<void>> = [];
after(async () => {
  for (const close of closers) await close().catch(() => {});
});

/** An SDK host of `revision` that shows apps and cannot be asked, launching `elicit gateway --ui app -- elicit serve travel`. */
async function appHost(revision: ProtocolRevision, ui = "app") {
  const client = clientFor(revision, APP_HOST);
  const args = [BIN, "gateway", "--no-browser", "--ui", ui, "--", process.execPath, BIN, "serve", "travel"];
  const transport = new StdioClientTransport({ command: process.execPath, args, env: ENV, stderr: "pipe" });
  const stderr = watchText(transport.stderr as Readable, CALL.timeout);
  await client.connect(transport);
  closers.push(() => client.close());
  const call = async (name: string, args: Record<string, unknown>) =>
    (await client.callTool({ name, arguments: args }, CALL)) as CallToolResult;
  return {
    client,
    call,
    stderr,
    /** What the form app sends for the question `asked` carries. */
    answer: (asked: AppAsk, action: "accept" | "decline" | "cancel", content?: Record<string, unknown>, over: Partial<AppAsk> = {}) => {
      const { tool, arguments: a, state, question } = { ...asked, ...over };
      return call(asked.answerTool, { tool, arguments: a, state, key: question.key, action, ...(content ? { content } : {}) });
    },
  };
}

/** The question a result carries for the app (fails the test when it carries none). */
function askOf(result: CallToolResult): AppAsk {
  const ask = result._meta?.[APP_META_KEY] as AppAsk | undefined;
  assert.ok(ask && typeof ask.state === "string", `no question for the app: ${JSON.stringify(result)}`);
  assert.equal(ask.answerTool, ANSWER_TOOL);
  return ask;
}

const refused = (reason: string) => (error: unknown) => {
  assert.ok(error instanceof ProtocolError, String(error));
  assert.equal(error.code, -32602, error.message);
  assert.equal((error.data as { reason?: string } | undefined)?.reason, reason, error.message);
  return true;
};

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`a ${revision} host that shows apps and cannot be asked, --ui app`, () => {
    test(
      "book_trip: each question comes as the form app, the answers go through elicit_answer, the call ends booked",
      CLI_TEST,
      async () => {
        const host = await appHost(revision);
        const tools = (await host.client.listTools()).tools;
        const book = tools.find((t) => t.name === "book_trip");
        assert.equal((book?._meta?.ui as { resourceUri?: string } | undefined)?.resourceUri, FORM_APP_URI, "the tool shows the form app");
        const answerTool = tools.find((t) => t.name === ANSWER_TOOL);
        assert.deepEqual((answerTool?._meta?.ui as { visibility?: string[] }).visibility, ["app"], "the answer tool is the app's only");
        assert.ok((await host.client.listResources()).resources.some((r) => r.uri === FORM_APP_URI && r.mimeType === APP_MIME_TYPE));
        const read = await host.client.readResource({ uri: FORM_APP_URI });
        assert.match((read.contents[0] as { text: string }).text, /Content-Security-Policy/);

        let result = await host.call("book_trip", BOOKING);
        assert.match(textOf(result), /The person is being asked to fill in a form/);
        const first = askOf(result);
        assert.equal(first.tool, "book_trip");
        assert.deepEqual(first.arguments, BOOKING);
        let asked = first;
        for (let rounds = 0; ; rounds++) {
          assert.ok(rounds < 5, "the booking ends within a few questions");
          const { action, content } = bookingAnswer(String(asked.question.request.message)) as {
            action: "accept";
            content?: Record<string, unknown>;
          };
          result = await host.answer(asked, action, content);
          if (!(result._meta?.[APP_META_KEY] as { state?: unknown } | undefined)?.state) break;
          asked = askOf(result);
        }
        assert.deepEqual(result._meta?.[APP_META_KEY], { final: true });
        assert.match(
          textOf(result),
          /Booked! Reference ELC-[0-9A-Z]{6}: .*for Ana Garcia \(seat: aisle, room: city view, travel insurance \$150\)/,
        );

        // Each state was taken once: the first question's state, sent again, names nothing the gateway waits on.
        await assert.rejects(host.answer(first, "accept", {}), refused("state"));
        assert.doesNotMatch(host.stderr.text(), /a question waits in the browser/, "nothing waited on the page: the app answered");
      },
    );

    test(
      "decline books nothing; a state is refused for another tool, question or arguments, an invalid answer never reaches the server",
      CLI_TEST,
      async () => {
        const host = await appHost(revision);
        const asked = askOf(await host.call("book_trip", BOOKING));
        await assert.rejects(host.answer(asked, "accept", {}, { tool: "pay_for_booking" }), refused("tool"));
        await assert.rejects(host.answer(asked, "accept", {}, { question: { ...asked.question, key: "other" } }), refused("question"));
        await assert.rejects(host.answer(asked, "accept", {}, { arguments: { ...BOOKING, flightId: "BCN-12" } }), refused("arguments"));
        await assert.rejects(host.answer(asked, "accept", {}, { state: "made-up" }), refused("state"));
        // An answer the form does not allow never reaches the server: -32602 naming the field.
        await assert.rejects(host.answer(asked, "accept", { confirmBooking: "yes" }), (error: unknown) => {
          assert.ok(error instanceof ProtocolError, String(error));
          assert.equal(error.code, -32602);
          assert.match(error.message, /not sent to the server: .*field "confirmBooking": .*\[type\]/);
          return true;
        });
        // The refusals left the question open: the decline is taken.
        const result = await host.answer(asked, "decline");
        assert.deepEqual(result._meta?.[APP_META_KEY], { final: true });
        assert.match(textOf(result), /Nothing was booked: you declined the booking confirmation\./);
        await assert.rejects(host.answer(asked, "accept", {}), refused("state"));
      },
    );
  });
}
