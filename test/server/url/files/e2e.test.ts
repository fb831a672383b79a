// ctx.elicitFile end to end: a server over Streamable HTTP with its URL kit (loopback identity), the library's
// client on 2025-11-25 and 2026-07-28, and the person in headless Chromium on the kit's upload page. The person
// sends a 5 MB PDF and the tool reads back the same bytes (the same SHA-256); a file whose content is not what
// is accepted is refused on the page and the flow stays open for the right one; a second browser on the same
// link is refused; the file never crosses the MCP wire.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport, type CallToolResult } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import type { Browser, Page } from "playwright-core";
import * as z from "zod";
import { attachElicitation } from "../../../../src/client/attach.js";
import type { ElicitationUI, UrlAnswer, UrlRequest } from "../../../../src/client/ui.js";
import type { ProtocolRevision } from "../../../../src/schema/types.js";
import { serveHttp, type HttpServerHandle } from "../../../../src/server/http/serve.js";
import { createElicitation } from "../../../../src/server/kit/elicitation.js";
import { directorySink } from "../../../../src/server/url/files/directory-sink.js";
import { createUrlKit, type UrlKit } from "../../../../src/server/url/url-kit.js";
import { removeOnExit } from "../../../helpers/cleanup.js";
import { launchChromium } from "../../../helpers/chromium.js";
import { needs } from "../../../helpers/needs.js";
import { tap, type WireMessage } from "../../../helpers/mcp.js";
import { ensurePageBundles } from "../../../helpers/url-pages.js";

/** A 5 MB file that starts like a PDF: the rest random, so a truncated or reordered copy cannot match. */
const PDF = Buffer.concat([Buffer.from("%PDF-1.7\n"), randomBytes(5 * 1024 * 1024 - 9)]);
const PDF_SHA = createHash("sha256").update(PDF).digest("hex");

let kit: UrlKit;
let uploads: string;
let http: HttpServerHandle;
let browser: Browser;
const serverLog: string[] = [];

before(async () => {
  await ensurePageBundles();
  uploads = mkdtempSync(join(tmpdir(), "mcp-elicit-file-e2e-"));
  removeOnExit(uploads);
  kit = createUrlKit({ identity: "loopback", serverName: "Visas (test)", files: { sink: directorySink(uploads) } });
  const elicitation = createElicitation({ urlKit: kit, progressIntervalMs: 50 });
  const factory = (): McpServer => {
    const server = new McpServer({ name: "visas", version: "1.0.0" });
    elicitation.registerTool(
      server,
      "send_passport",
      {
        description: "Asks for the passport's photo page",
        inputSchema: z.object({ attempt: z.number(), via: z.enum(["request", "error"]).optional() }),
      },
      async ({ via }, ctx) => {
        const result = await ctx.elicitFile("Upload the photo page of your passport (PDF).", {
          accept: ["application/pdf"],
          maxBytes: 8 * 1024 * 1024,
          retryWaitMs: 2_000,
          ...(via ? { via } : {}),
        });
        if (result.outcome !== "completed") return { content: [{ type: "text", text: result.outcome }] };
        const [file] = result.files;
        const bytes = await file!.read();
        const read = createHash("sha256").update(bytes).digest("hex");
        return {
          content: [{ type: "text", text: "received" }],
          structuredContent: {
            name: file!.name,
            type: file!.type,
            size: file!.size,
            sha256: file!.sha256,
            readSha256: read,
            count: result.files.length,
          },
        };
      },
    );
    // The tool's own mistakes in asking: a tool error naming the rule, before any link exists.
    elicitation.registerTool(
      server,
      "ask_badly",
      { description: "Asks with the options given", inputSchema: z.object({ accept: z.array(z.string()), maxBytes: z.number() }) },
      async ({ accept, maxBytes }, ctx) => {
        await ctx.elicitFile("Upload something.", { accept, maxBytes });
        return { content: [{ type: "text", text: "asked" }] };
      },
    );
    return server;
  };
  http = await serveHttp(factory, { urlKit: kit, onerror: (e) => serverLog.push(e.stack ?? e.message) });
  if (!needs("chromium")) browser = await launchChromium();
});

after(async () => {
  await browser?.close();
  await http?.close();
  await kit?.close();
  if (uploads) rmSync(uploads, { recursive: true, force: true });
});

/** The person: accepts the link in the client, then does `work` on the page in Chromium. */
class Person implements ElicitationUI {
  work: Promise<unknown>[] = [];
  urls: UrlRequest[] = [];
  constructor(private readonly onPage: (address: string) => Promise<void>) {}
  async form(): Promise<never> {
    throw new Error("no form expected");
  }
  async url(request: UrlRequest): Promise<UrlAnswer> {
    this.urls.push(request);
    // 2026-07-28 asks again with the same link while the flow is open: the page is opened once.
    if (this.urls.filter((u) => u.analysis.url === request.analysis.url).length === 1) this.work.push(this.onPage(request.analysis.url));
    return "accept";
  }
  notice(): void {}
}

function versionOptions(revision: ProtocolRevision) {
  if (revision === "2026-07-28") return { versionNegotiation: { mode: { pin: "2026-07-28" } } };
  return { supportedProtocolVersions: ["2025-11-25", "2025-06-18"] };
}

async function callAs(revision: ProtocolRevision, person: Person, attempt: number, via?: "error") {
  const wire: WireMessage[] = [];
  const client = new Client({ name: "Trip planner", version: "1.0.0" }, versionOptions(revision) as never);
  const handle = attachElicitation(client, { ui: person });
  await client.connect(tap(new StreamableHTTPClientTransport(http.url), wire));
  try {
    const result = (await handle.callTool({ name: "send_passport", arguments: { attempt, ...(via ? { via } : {}) } })) as CallToolResult;
    await Promise.all(person.work);
    return { result, wire };
  } finally {
    await client.close();
  }
}

async function openPage(address: string): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 800, height: 900 } });
  const page = await context.newPage();
  page.setDefaultTimeout(30_000);
  await page.goto(address);
  await page.waitForURL((u) => u.pathname.includes("/elicit/file/"));
  return page;
}

describe("ctx.elicitFile's options", () => {
  test("a malformed accept or a size that is not a positive whole number is a tool error naming the option; no link is sent", async () => {
    const person = new Person(async () => {});
    const client = new Client({ name: "Trip planner", version: "1.0.0" });
    const handle = attachElicitation(client, { ui: person });
    await client.connect(new StreamableHTTPClientTransport(http.url));
    try {
      const call = async (accept: string[], maxBytes: number) =>
        (await handle.callTool({ name: "ask_badly", arguments: { accept, maxBytes } })) as CallToolResult;
      const badAccept = await call(["pdf"], 1000);
      assert.equal(badAccept.isError, true);
      assert.match(JSON.stringify(badAccept.content), /accept must be a non-empty list of MIME types/);
      const badSize = await call(["application/pdf"], 0);
      assert.equal(badSize.isError, true);
      assert.match(JSON.stringify(badSize.content), /maxBytes must be a positive whole number/);
      assert.deepEqual(person.urls, []);
    } finally {
      await client.close();
    }
  });
});

for (const revision of ["2025-11-25", "2026-07-28"] as const) {
  describe(`ctx.elicitFile on ${revision}`, { skip: needs("chromium") }, () => {
    test("a wrong type is refused on the page, another browser is refused, then the 5 MB PDF reaches the tool with the same SHA-256", async () => {
      const violations: string[] = [];
      const seen: Record<string, string> = {};
      const person = new Person(async (address) => {
        const page = await openPage(address);
        // The refused upload's 415 is logged by the browser as a failed resource (expected), and the favicon the pages do not serve.
        page.on(
          "console",
          (m) =>
            m.type() === "error" &&
            !/status of 415/.test(m.text()) &&
            !m.location().url.endsWith("/favicon.ico") &&
            violations.push(`${m.location().url}: ${m.text()}`),
        );
        page.on("pageerror", (e) => violations.push(e.message));
        // The limits are on the page before anything is chosen, and the picker is a labelled file input.
        seen.limits = await page.locator("#file-limits").innerText();
        const picker = page.getByLabel("Choose a file");
        assert.equal(await picker.getAttribute("type"), "file");

        // Someone else's browser (no flow cookie) on the same link is refused.
        const other = await browser.newContext();
        const otherPage = await other.newPage();
        const refused = await otherPage.goto(address);
        seen.other = `${refused?.status()} ${await otherPage.locator("h1").innerText()}`;
        await other.close();

        // A text file named like a PDF: the content decides.
        await picker.setInputFiles({ name: "passport.pdf", mimeType: "application/pdf", buffer: Buffer.from("just some text, not a PDF") });
        await page.getByRole("button", { name: "Send" }).click();
        await page.getByRole("alert").filter({ hasText: "not accepted" }).waitFor();
        seen.wrongType = await page.getByRole("alert").innerText();

        await picker.setInputFiles({ name: "passport.pdf", mimeType: "application/pdf", buffer: PDF });
        await page.locator("#file-preview").getByText("passport.pdf (5 MiB)").waitFor();
        await page.getByRole("button", { name: "Send" }).click();
        await page.getByRole("heading", { name: "Done" }).waitFor({ timeout: 60_000 });
        await page.context().close();
      });
      const { result, wire } = await callAs(revision, person, revision === "2025-11-25" ? 1 : 2);
      assert.equal(result.isError, undefined, JSON.stringify(result.content));
      assert.deepEqual(result.structuredContent, {
        name: "passport.pdf",
        type: "application/pdf",
        size: PDF.length,
        sha256: PDF_SHA,
        readSha256: PDF_SHA,
        count: 1,
      });
      assert.match(seen.limits!, /One file of at most 8 MiB; accepted: application\/pdf/);
      assert.match(seen.other!, /^409 This link is open in another browser/);
      assert.match(seen.wrongType!, /passport\.pdf was not accepted/);
      assert.deepEqual(violations, [], "no CSP violation or script error on the page");
      // The file's bytes and digest never travel to the client: only the tool's own result names the digest.
      const before = wire.filter((m) => !(m.dir === "in" && m.message.result?.structuredContent));
      const text = JSON.stringify(before);
      assert.ok(!text.includes(PDF_SHA), "no digest on the wire outside the tool's result");
      assert.ok(!text.includes("%PDF-1.7"), "no file bytes on the wire");
      assert.deepEqual(serverLog, []);
    });
  });
}

describe('ctx.elicitFile on 2025-11-25 with via: "error"', { skip: needs("chromium") }, () => {
  test("the call ends with -32042, the person uploads, and the client's retry gets the file", async () => {
    const person = new Person(async (address) => {
      const page = await openPage(address);
      await page.getByLabel("Choose a file").setInputFiles({ name: "passport.pdf", mimeType: "application/pdf", buffer: PDF });
      await page.getByRole("button", { name: "Send" }).click();
      await page.getByRole("heading", { name: "Done" }).waitFor({ timeout: 60_000 });
      await page.context().close();
    });
    const { result, wire } = await callAs("2025-11-25", person, 3, "error");
    assert.equal(result.isError, undefined, JSON.stringify(result.content));
    assert.equal((result.structuredContent as { readSha256: string }).readSha256, PDF_SHA);
    assert.ok(
      wire.some((m) => m.dir === "in" && m.message.error?.code === -32042),
      "the first call ended with URLElicitationRequired",
    );
  });
});
