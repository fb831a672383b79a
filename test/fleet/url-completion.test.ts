// URL mode across a fleet, 2025-11-25, sticky sessions: the session lives on one member (A), the person's
// page request goes straight to another (B), and the end reaches A through Redis: the live request
// resolves, and after -32042 A sends notifications/elicitation/complete and the client's retry finds
// the completed flow.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest, UrlWait, UrlWaitOutcome } from "../../src/client/ui.js";
import { fleetForFile, type FleetMember } from "../helpers/fleet.js";
import { watchGetStream } from "../helpers/get-stream.js";
import { tap, type WireMessage } from "../helpers/mcp.js";

// Without redis-server or HAProxy the file is skipped, and its hooks set nothing up (test/helpers/needs.ts).
const shared = fleetForFile({ sticky: true });
const { skip } = shared;

const flowIdOf = (url: string) => new URL(url).pathname.split("/").pop()!;

/** Accepts the link, then opens the page on whichever member `pageOn` picks; waits for the completion notice. */
class PersonElsewhere implements ElicitationUI {
  urls: UrlRequest[] = [];
  pages: string[] = [];
  completions = 0;
  constructor(
    private pageOn: () => FleetMember,
    private getStreamOpen: Promise<void>,
  ) {}
  async form(): Promise<never> {
    throw new Error("no form expected");
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    const page = new URL(`/done/${flowIdOf(request.analysis.url)}`, this.pageOn().pageUrl);
    // After the answer is sent, as a person's browser would be; the GET stream must be open to hear the notice.
    setImmediate(() => void this.getStreamOpen.then(() => fetch(page).then(async (r) => this.pages.push(`${r.status} ${await r.text()}`))));
    return "accept";
  }
  async waitForUrl(wait: UrlWait): Promise<UrlWaitOutcome> {
    await wait.completed;
    this.completions++;
    return "completed";
  }
  notice(): void {}
}

async function session(pageOn: (holder: string) => FleetMember) {
  const wire: WireMessage[] = [];
  const servedBy: string[] = [];
  const getStream = watchGetStream();
  const recording: typeof fetch = async (input, init) => {
    const response = await getStream.fetch(input, init);
    servedBy.push(response.headers.get("x-served-by") ?? "?");
    return response;
  };
  const client = new Client({ name: "fleet-url", version: "1.0.0" }, { supportedProtocolVersions: ["2025-11-25"] } as never);
  let holder = "";
  const person = new PersonElsewhere(() => pageOn(holder), getStream.opened);
  const handle = attachElicitation(client, { ui: person });
  await client.connect(tap(new StreamableHTTPClientTransport(shared.fleet.url, { fetch: recording }), wire));
  holder = servedBy[0]!;
  return { client, handle, person, wire, servedBy, holder: () => holder, close: () => client.close() };
}

const other = (name: string) => shared.fleet.members.find((m) => m.name !== name)!;
const textOf = (result: CallToolResult) => (result.content as { text: string }[])[0]!.text;

test("a live URL request on member A completes when the page is finished on member B", { skip }, async () => {
  const s = await session((holder) => other(holder));
  try {
    const result = (await s.handle.callTool({ name: "connect", arguments: { via: "request" } })) as CallToolResult;
    const [outcome, flowId, , servedBy] = textOf(result).split(" ");
    assert.equal(outcome, "completed");
    assert.equal(servedBy, s.holder(), "the tool ran on the session's member");
    assert.equal(flowId, flowIdOf(s.person.urls[0]!.analysis.url));
    assert.equal(s.person.pages.length, 1);
    assert.match(s.person.pages[0]!, new RegExp(`^200 completed by (?!${s.holder()}$)member-\\d$`), "the page ran on another member");
    assert.ok(new Set(s.servedBy).size === 1, `sticky: every request of the session on ${s.holder()}: ${s.servedBy}`);
  } finally {
    await s.close();
  }
});

test("-32042 on member A: the page on member B ends the flow, A notifies the client, and the retry through HAProxy finds it", async (t) => {
  // Skipped from inside: as an option, the skip would make prettier re-wrap this long-named test whole.
  if (skip) return t.skip(skip);
  const s = await session((holder) => other(holder));
  try {
    const result = (await s.handle.callTool({ name: "connect", arguments: { via: "error" } })) as CallToolResult;
    const [outcome, flowId] = textOf(result).split(" ");
    assert.equal(outcome, "completed");
    const errors = s.wire.filter((w) => w.dir === "in" && w.message.error).map((w) => w.message.error);
    assert.equal(errors.length, 1);
    assert.equal(errors[0].code, -32042);
    assert.equal(errors[0].data.elicitations[0].elicitationId, flowId);
    const completions = s.wire.filter((w) => w.dir === "in" && w.message.method === "notifications/elicitation/complete");
    assert.deepEqual(
      completions.map((c) => c.message.params),
      [{ elicitationId: flowId }],
    );
    assert.equal(s.person.completions, 1);
    assert.match(s.person.pages[0]!, new RegExp(`^200 completed by (?!${s.holder()}$)member-\\d$`));
    assert.equal(s.wire.filter((w) => w.dir === "out" && w.message.method === "tools/call").length, 2, "the call, then its retry");
  } finally {
    await s.close();
  }
});
