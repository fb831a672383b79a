// book_trip with the passport option (`elicit serve travel --passport`, which `elicit demo` starts): Barcelona
// is international, so after the two forms the person is sent to the URL kit's upload page for the
// passport's photo page, and only then is the trip booked (once). Over Streamable HTTP on 2025-11-25 and
// 2026-07-28 with the library's client; the person's browser is the upload page's own requests.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { attachElicitation } from "../../src/client/attach.js";
import type { ElicitationUI } from "../../src/client/ui.js";
import { SAMPLE_PASSPORT_NAME, samplePassportPng } from "../../src/cli/sample-passport.js";
import type { ProtocolRevision } from "../../src/schema/types.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { directorySink } from "../../src/server/url/files/directory-sink.js";
import { createUrlKit, type UrlKit } from "../../src/server/url/url-kit.js";
import type { Booking } from "../../src/servers/travel/bookings.js";
import { createTravelServer } from "../../src/servers/travel/server.js";
import { scriptedUI } from "../../src/ui/scripted.js";
import { removeOnExit } from "../helpers/cleanup.js";
import { ensurePageBundles } from "../helpers/url-pages.js";

const TRIP = { destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" };
const PNG = samplePassportPng();
const PNG_SHA = createHash("sha256").update(PNG).digest("hex");

let kit: UrlKit;
let http: HttpServerHandle;
const bookings = new Map<string, Booking>();
let writes = 0;

before(async () => {
  await ensurePageBundles();
  const uploads = mkdtempSync(join(tmpdir(), "mcp-elicit-travel-passport-"));
  removeOnExit(uploads);
  kit = createUrlKit({ identity: "loopback", serverName: "mcp-elicit-travel", files: { sink: directorySink(uploads) } });
  const store = {
    get: (reference: string) => bookings.get(reference),
    set: (reference: string, booking: Booking) => {
      writes++;
      bookings.set(reference, booking);
    },
  };
  const create = createTravelServer(createElicitation({ urlKit: kit }), { store, url: { kit }, passport: true });
  http = await serveHttp(() => create(), { urlKit: kit });
});

after(async () => {
  await http?.close();
  await kit?.close();
});

/** The person's browser on the upload page: opens the link (a cookie binds it), then sends the file with the page's CSRF token. */
async function upload(address: string, bytes: Uint8Array): Promise<void> {
  const page = new URL(address.replace("/connect/", "/file/"));
  const opened = await fetch(page);
  const cookie = opened.headers.getSetCookie()[0]!.split(";")[0]!;
  const csrf = /"csrf":"([^"]+)"/.exec(await opened.text())![1]!;
  const headers = {
    cookie,
    origin: page.origin,
    "x-csrf-token": csrf,
    "x-file-name": SAMPLE_PASSPORT_NAME,
    "x-file-index": "0",
    "x-file-total": "1",
  };
  const sent = await fetch(page, { method: "POST", headers, body: new Uint8Array(bytes) });
  assert.ok(sent.ok, `stored: ${sent.status}`);
}

async function book(revision: ProtocolRevision, passport: "upload" | "decline") {
  const asked: string[] = [];
  const ids: (string | undefined)[] = [];
  const scripted = scriptedUI([
    { match: "Confirm your Barcelona", action: "accept", content: { confirmBooking: true } },
    { match: "contact", action: "accept", content: { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" } },
  ]);
  const ui: ElicitationUI = {
    ...scripted,
    async url(request) {
      // 2025-11-25 sends the request with an id the completion notice names; 2026-07-28 has none (the retry finds the upload).
      asked.push(request.message);
      ids.push(request.elicitationId);
      if (passport === "decline") return "decline";
      setImmediate(() => void upload(request.analysis.url, PNG));
      return "accept";
    },
  };
  // As url-file-e2e.test.ts: 2026-07-28 pinned, or only the 2025 revisions offered.
  const versions =
    revision === "2026-07-28"
      ? { versionNegotiation: { mode: { pin: "2026-07-28" } } }
      : { supportedProtocolVersions: ["2025-11-25", "2025-06-18"] };
  const client = new Client({ name: "host", version: "1.0.0" }, versions as never);
  const { callTool } = attachElicitation(client, { ui });
  await client.connect(new StreamableHTTPClientTransport(http.url));
  try {
    const result = (await callTool({ name: "book_trip", arguments: TRIP })) as CallToolResult;
    return { result, asked, ids, text: (result.content[0] as { text: string }).text };
  } finally {
    await client.close();
  }
}

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`book_trip --passport on ${revision}`, () => {
    test("asks for the passport's photo page after the forms, and books once with its type, size and SHA-256", async () => {
      const before = writes;
      const { result, asked, ids, text } = await book(revision, "upload");
      assert.equal(ids[0] !== undefined, revision === "2025-11-25", "the revision asked for is the one spoken");
      assert.ok(asked.length >= 1, "one link (2026-07-28 may ask it again until the page is done)");
      assert.match(asked[0]!, /^Upload the photo page of the traveler's passport: Barcelona is an international trip/);
      assert.match(
        text,
        new RegExp(`^Booked! Reference ELC-[0-9A-Z]{6}: .* Passport photo page received \\(image/png, ${PNG.length} bytes\\)\\.$`),
      );
      const reference = (result.structuredContent as { reference: string; passport: string }).reference;
      assert.equal((result.structuredContent as { passport: string }).passport, "received");
      assert.equal(writes - before, 1, "the booking is made once");
      assert.deepEqual(bookings.get(reference)!.passport, { type: "image/png", size: PNG.length, sha256: PNG_SHA });
      assert.doesNotMatch(JSON.stringify(result), new RegExp(PNG_SHA), "the digest stays with the booking, not in the tool's result");
    });

    test("declined: the trip is booked without it, and the result says the airline still needs it", async () => {
      const { result, text } = await book(revision, "decline");
      assert.match(text, /^Booked! .* The passport's photo page was not given \(declined\): the airline needs it before check-in\.$/);
      const reference = (result.structuredContent as { reference: string }).reference;
      assert.equal(bookings.get(reference)!.passport, undefined);
    });
  });
}
