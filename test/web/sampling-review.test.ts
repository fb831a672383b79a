// <mcp-elicit-sampling-review> in headless Chromium: the request (system prompt, messages, hints, priorities,
// token limit, tools) approved with edits or denied, then the model's answer edited, approved or rejected, and
// an answer typed by the person when there is no model.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { answers, assertAccessible, assertClean, mount, screenshots, shownText, webBench } from "../helpers/web-pages.js";
import { needs } from "../helpers/needs.js";

const bench = webBench();
const REQUEST = {
  server: { name: "travel" },
  systemPrompt: "You rank flights for a traveller.",
  messages: [
    { role: "user", text: "Rank these flights: BA123 09:00 $420, IB456 13:30 $310" },
    { role: "assistant", text: "[image, image/png, 12 KB]" },
  ],
  maxTokens: 300,
  modelHints: ["claude-sonnet", "gpt-4.1"],
  priorities: { cost: 0.3, speed: 0.8 },
  tools: ["lookup_airport"],
  model: "local-llm",
};
const ANSWER = {
  model: "local-llm",
  text: "IB456 is the best value.",
  stopReason: "endTurn",
  toolCalls: ['lookup_airport({"code":"BCN"})'],
};

const review = (page: Page, props: Record<string, unknown>) => mount(page, "mcp-elicit-sampling-review", { request: REQUEST, ...props });
/** The host moves the element on to the answer phase, as a page does once the model answered. */
const showAnswer = (page: Page, answer: unknown) =>
  page.locator("mcp-elicit-sampling-review").evaluate((el, answer) => Object.assign(el, { phase: "answer", answer }), answer);

describe("<mcp-elicit-sampling-review>", { skip: needs("chromium") }, () => {
  test("the request is shown in full, approved with edits; then the answer is edited and sent", async () => {
    const { page, errors } = await bench.open();
    await review(page, {});
    const text = await shownText(page);
    for (const shown of [
      "Model request from travel",
      "local-llm",
      "claude-sonnet, gpt-4.1",
      "cost 0.3, speed 0.8",
      "lookup_airport",
      "300",
      "You rank flights for a traveller.",
      "Message 1 (user)",
      "BA123 09:00 $420",
      "Message 2 (assistant)",
    ])
      assert.ok(text.includes(shown), `missing ${shown}`);
    await assertAccessible(page);
    await screenshots(bench, page, "sampling-request");
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Message 1 (user)").fill("Rank these flights by price: BA123 $420, IB456 $310");
    await page.getByLabel("Maximum tokens").fill("0");
    await page.getByRole("button", { name: "Approve with edits" }).click();
    assert.equal(await page.getByLabel("Maximum tokens").getAttribute("aria-invalid"), "true");
    assert.equal(await page.getByText("Maximum tokens must be a whole number above 0").count(), 1);
    await page.getByLabel("Maximum tokens").fill("200");
    await assertAccessible(page);
    await page.getByRole("button", { name: "Approve with edits" }).click();
    await page.getByRole("status").filter({ hasText: "Approved: waiting for the answer." }).waitFor();

    await showAnswer(page, ANSWER);
    const shown = await shownText(page);
    for (const s of ["Answer for travel", "IB456 is the best value.", "endTurn", 'lookup_airport({"code":"BCN"})'])
      assert.ok(shown.includes(s), `missing ${s}`);
    await assertAccessible(page);
    await screenshots(bench, page, "sampling-answer");
    await page.getByRole("button", { name: "Edit" }).click();
    await page.getByLabel("Answer").fill("IB456 is the best value; BA123 is earlier.");
    await page.getByRole("button", { name: "Send edited answer" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [
        { action: "approve", edit: { messages: { 0: "Rank these flights by price: BA123 $420, IB456 $310" }, maxTokens: 200 } },
        { action: "approve", text: "IB456 is the best value; BA123 is earlier." },
      ],
    );
    await page.getByRole("status").filter({ hasText: "Sent the answer to travel." }).waitFor();
    await assertClean(page, errors);
    await page.close();
  });

  test("approve and deny as they are; approve or reject the answer unchanged", async () => {
    const { page, errors } = await bench.open();
    await review(page, {});
    await page.getByRole("button", { name: "Approve" }).click();
    await review(page, {});
    await page.getByRole("button", { name: "Deny" }).click();
    await page.getByRole("status").filter({ hasText: "Denied: nothing was sent to a model." }).waitFor();
    await review(page, { phase: "answer", answer: ANSWER });
    await page.getByRole("button", { name: "Approve" }).click();
    await review(page, { phase: "answer", answer: ANSWER });
    await page.getByRole("button", { name: "Reject" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "approve" }, { action: "deny" }, { action: "approve" }, { action: "reject" }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("with no model the person writes the answer, which cannot be empty", async () => {
    const { page, errors } = await bench.open();
    const { model: _model, ...noModel } = REQUEST;
    await mount(page, "mcp-elicit-sampling-review", { request: noModel });
    assert.ok((await shownText(page)).includes("No model is set up: you write the answer"));
    await page.getByRole("button", { name: "Approve" }).click();
    await showAnswer(page, undefined);
    await page.getByRole("heading", { name: "Write the answer for travel" }).waitFor();
    await page.getByRole("button", { name: "Send" }).click();
    assert.equal(await page.getByLabel("Answer").getAttribute("aria-invalid"), "true");
    await page.getByLabel("Answer").fill("IB456.");
    await page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "approve" }, { action: "approve", text: "IB456." }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("a malformed view shows what it can, and never breaks the element", async () => {
    const { page, errors } = await bench.open();
    const malformed = {
      server: null,
      messages: [null, { role: "tool", text: 5 }],
      maxTokens: "many",
      modelHints: "gpt",
      priorities: 3,
      tools: 7,
    };
    await mount(page, "mcp-elicit-sampling-review", { request: malformed });
    const text = await shownText(page);
    for (const s of ["Model request from the server", "Message 1 (user)", "Message 2 (user)", "5", "many"])
      assert.ok(text.includes(s), `missing ${s}`);
    await page.getByRole("button", { name: "Deny" }).click();
    await mount(page, "mcp-elicit-sampling-review", {
      request: malformed,
      phase: "answer",
      answer: { model: {}, text: null, toolCalls: "x" },
    });
    await page.getByRole("button", { name: "Approve" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "deny" }, { action: "approve" }],
    );
    await assertClean(page, errors);
    await page.close();
  });
});
