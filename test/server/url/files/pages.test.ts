// The upload page in Chromium with people signed in at a real local OpenID provider (alice, bob): a file
// dropped on the zone is listed for a last look and sent; bob on alice's link is refused and her request stays
// open; a file over the limit is stopped on the page before any byte is sent, naming the limit; Decline.
import { before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { pagesBench, signInOnProvider } from "../../../helpers/url-pages.js";
import { needs } from "../../../helpers/needs.js";

const bench = pagesBench();

const fileFlow = (maxBytes = 64 * 1024) =>
  bench.flow({
    kind: "file",
    message: "Upload the photo page of your passport.",
    file: { accept: ["application/pdf", "image/*"], maxBytes, count: 1 },
  });

async function onUploadPage(page: Page, flowId: string): Promise<void> {
  await page.goto(bench.kit.connectUrl(flowId));
  if (new URL(page.url()).origin === new URL(bench.auth.issuer).origin) await signInOnProvider(page, bench.auth.issuer, "alice");
  await page.waitForURL((u) => u.pathname.endsWith(`/file/${flowId}`));
}

/** Drops a file made in the page on the drop zone, as a drag from the desktop does. */
async function drop(page: Page, name: string, text: string): Promise<void> {
  const transfer = await page.evaluateHandle(
    ([n, t]) => {
      const data = new DataTransfer();
      data.items.add(new File([t], n, { type: "application/pdf" }));
      return data;
    },
    [name, text] as const,
  );
  await page.dispatchEvent("#drop-zone", "drop", { dataTransfer: transfer });
}

describe("the upload page", { skip: needs("chromium") }, () => {
  let ana: { context: BrowserContext; page: Page };
  before(async () => {
    ana = await bench.person();
  });

  test("alice drops a PDF on the zone, sees it listed, sends it: the flow ends with her file", async () => {
    const flow = await fileFlow();
    await onUploadPage(ana.page, flow.id);
    const shown = await ana.page.locator("main").innerText();
    assert.match(shown, /Asked by Travel \(test\) through Test host/);
    assert.match(shown, /One file of at most 64 KiB; accepted: application\/pdf, image\/\*/);
    assert.match(shown, /The file goes to Travel \(test\) only: Test host does not see it/);
    assert.equal(await ana.page.getByRole("button", { name: "Send" }).isDisabled(), true, "nothing to send before a file is chosen");
    await drop(ana.page, "scan \u202Egnp.pdf", "%PDF-1.5\nthe photo page");
    // The name is shown as text with its bidi override made visible, and the size is there.
    const chosen = ana.page.locator("#file-preview li");
    await chosen.filter({ hasText: "(23 bytes)" }).waitFor();
    assert.equal(await chosen.innerText(), "scan [U+202E]gnp.pdf (23 bytes)", "the override is shown, not obeyed");
    await ana.page.screenshot({ path: join(bench.shots, "url-file-chosen.png"), fullPage: true });
    await ana.page.getByRole("button", { name: "Send" }).click();
    await ana.page.getByRole("heading", { name: "Done" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
    const [file] = await bench.kit.uploads.files(flow.id);
    assert.equal(file?.type, "application/pdf");
    assert.equal(file?.size, 23);
    assert.equal(file!.name, "scan [U+202E]gnp.pdf", "the tool gets the name inert");
    assert.deepEqual(bench.errors, []);
  });

  test("bob, signed in, is refused on alice's link; her request stays open and she sends from the keyboard", async () => {
    const flow = await fileFlow();
    const bob = await bench.person();
    try {
      await bob.page.goto(bench.kit.connectUrl(flow.id));
      await signInOnProvider(bob.page, bench.auth.issuer, "bob");
      await bob.page.getByRole("heading", { name: "This link was made for someone else" }).waitFor();
      assert.equal(await bob.page.locator("#file-input").count(), 0, "no upload form for bob");
    } finally {
      await bob.context.close();
    }
    assert.equal(await bench.kit.flows.outcome(flow.id), undefined);
    // Alice can still send.
    await onUploadPage(ana.page, flow.id);
    const picker = ana.page.getByLabel("Choose a file");
    await picker.setInputFiles({ name: "p.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 x") });
    // From the keyboard: the picker, then Tab to Send, then Enter.
    await picker.focus();
    await ana.page.keyboard.press("Tab");
    assert.equal(await ana.page.evaluate(() => document.activeElement?.id), "file-send");
    await ana.page.keyboard.press("Enter");
    await ana.page.getByRole("heading", { name: "Done" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "completed");
  });

  test("several files: both chosen, listed, sent one after the other; the tool gets both in order", async () => {
    const flow = await bench.flow({
      kind: "file",
      message: "Upload both sides of your ID card.",
      file: { accept: ["application/pdf"], maxBytes: 64 * 1024, count: 2 },
    });
    await onUploadPage(ana.page, flow.id);
    assert.match(await ana.page.locator("#file-limits").innerText(), /Up to 2 files of at most 64 KiB each/);
    await ana.page.getByLabel("Choose files").setInputFiles([
      { name: "front.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 front") },
      { name: "back.pdf", mimeType: "application/pdf", buffer: Buffer.from("%PDF-1.4 the back") },
    ]);
    assert.deepEqual(await ana.page.locator("#file-preview li").allInnerTexts(), ["front.pdf (14 bytes)", "back.pdf (17 bytes)"]);
    await ana.page.getByRole("button", { name: "Send" }).click();
    await ana.page.getByRole("heading", { name: "Done" }).waitFor();
    assert.deepEqual(
      (await bench.kit.uploads.files(flow.id)).map((f) => [f.name, f.size]),
      [
        ["front.pdf", 14],
        ["back.pdf", 17],
      ],
    );
  });

  test("a file over the limit is stopped on the page, naming the limit, and Decline ends the request", async () => {
    const flow = await fileFlow(1024);
    await onUploadPage(ana.page, flow.id);
    await ana.page.getByLabel("Choose a file").setInputFiles({
      name: "big.pdf",
      mimeType: "application/pdf",
      buffer: Buffer.concat([Buffer.from("%PDF-1.4\n"), Buffer.alloc(4096)]),
    });
    await ana.page.getByRole("alert").filter({ hasText: "larger than the limit of 1 KiB" }).waitFor();
    assert.equal(await ana.page.getByRole("button", { name: "Send" }).isDisabled(), true);
    await ana.page.getByRole("button", { name: "Decline" }).click();
    await ana.page.getByRole("heading", { name: "You declined" }).waitFor();
    assert.equal(await bench.kit.flows.outcome(flow.id), "declined");
    assert.deepEqual(await bench.kit.uploads.files(flow.id), []);
  });
});
