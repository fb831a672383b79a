// <mcp-elicit-form> in headless Chromium under `Content-Security-Policy: default-src 'self'`: every field kind by
// keyboard and by mouse, defaults, the per-field messages of validateContent, the review step, Decline and Cancel.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import type { Page } from "playwright-core";
import { answers, assertAccessible, assertClean, mount, screenshots, shownText, webBench } from "../helpers/web-pages.js";
import { SERVER, TRIP } from "../helpers/trip-form.js";
import { sensitiveWarning } from "../../src/schema/sensitive.js";
import { needs } from "../helpers/needs.js";

const bench = webBench();
const showForm = (page: Page, extra: Record<string, unknown> = {}) =>
  mount(
    page,
    "mcp-elicit-form",
    { request: { message: "Where are you going?\nTell us the details.", requestedSchema: TRIP, server: SERVER, ...extra } },
    { autofocus: "" },
  );

/** Whether `locator`'s element has the focus, looking through shadow roots. */
const hasFocus = (page: Page, label: string) =>
  page.getByLabel(label, { exact: true }).evaluate((el) => {
    let active = document.activeElement;
    while (active?.shadowRoot?.activeElement) active = active.shadowRoot.activeElement;
    return active === el;
  });

const EXPECTED = {
  name: "Ada Lovelace",
  email: "ada@example.com",
  website: "https://example.com/ada",
  departDate: "2026-06-15",
  arrival: "2026-06-15T09:30:00Z",
  travellers: 3,
  budget: 1500.5,
  insurance: true,
  newsletter: false,
  seat: "window",
  cabin: "biz",
  meals: ["veg", "fish"],
  extras: ["lounge"],
};

describe("<mcp-elicit-form>", { skip: needs("chromium") }, () => {
  test("shows defaults prefilled, required marks, help and hints; nothing chosen for a yes/no without default", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    assert.equal(await page.getByRole("heading", { name: "Form from travel 1.0.0" }).count(), 1);
    assert.equal(await page.getByLabel("Travellers", { exact: true }).inputValue(), "2");
    assert.equal(await page.getByLabel("Cabin", { exact: true }).inputValue(), "eco");
    assert.equal(
      await page.getByRole("radiogroup", { name: "Newsletter" }).getByRole("radio", { name: "No", exact: true }).isChecked(),
      true,
    );
    for (const radio of await page.getByRole("radiogroup", { name: "Travel insurance" }).getByRole("radio").all())
      assert.equal(await radio.isChecked(), false);
    assert.equal(await page.getByLabel("Seat", { exact: true }).inputValue(), "", "a required list without default starts on Choose one");
    assert.equal(await page.getByLabel("Full name", { exact: true }).getAttribute("aria-required"), "true");
    assert.equal(await page.getByLabel("Website", { exact: true }).getAttribute("aria-required"), "false");
    const text = await shownText(page);
    for (const line of [
      "As on your passport",
      "An email address, like name@example.com",
      "A whole number from 1 to 9",
      "Choose 1 to 2 choices",
      "Optional",
    ])
      assert.ok(text.includes(line), `missing ${line}`);
    assert.ok(await hasFocus(page, "Full name"), "autofocus puts the focus on the first field");
    await assertAccessible(page);
    await screenshots(bench, page, "form");
    await assertClean(page, errors);
    await page.close();
  });

  test("every field kind filled by keyboard, reviewed and sent by keyboard", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    const k = page.keyboard;
    await k.type(EXPECTED.name);
    for (const value of [EXPECTED.email, EXPECTED.website, EXPECTED.departDate, EXPECTED.arrival]) {
      await k.press("Tab");
      await k.type(value);
    }
    await k.press("Tab");
    await k.press("ControlOrMeta+a");
    await k.type("3");
    await k.press("Tab");
    await k.type("1500.5");
    await k.press("Tab"); // insurance: focus enters the group on Yes, Space picks it
    await k.press("Space");
    await k.press("Tab"); // newsletter keeps its default
    await k.press("Tab"); // seat: type-ahead in a closed list
    await k.type("w");
    await k.press("Tab");
    await k.type("b");
    await k.press("Tab"); // meals: veg, fish
    await k.press("Space");
    await k.press("Tab");
    await k.press("Space");
    await k.press("Tab"); // meat
    await k.press("Tab"); // extras: bag (skip), lounge
    await k.press("Tab");
    await k.press("Space");
    await k.press("Tab"); // Submit
    const outline = await page.getByRole("button", { name: "Submit" }).evaluate((el) => getComputedStyle(el).outlineStyle);
    assert.equal(outline, "solid", "the focus is visible");
    await k.press("Enter");
    await page.getByRole("heading", { name: "Review your answers" }).waitFor();
    const review = await shownText(page);
    for (const shown of ["Ada Lovelace", "Business", "Lounge access", "veg, fish", "Yes"])
      assert.ok(review.includes(shown), `review lacks ${shown}`);
    assert.deepEqual(await answers(page), [], "nothing is sent before Send");
    await k.press("Tab"); // from the focused review heading to Send
    await k.press("Enter");
    assert.deepEqual(await answers(page), [{ tag: "mcp-elicit-form", detail: { action: "accept", content: EXPECTED } }]);
    await page.getByRole("status").filter({ hasText: "Sent your answers to travel 1.0.0." }).waitFor();
    await assertClean(page, errors);
    await page.close();
  });

  test("every field kind filled by mouse; the review's Edit goes back with the answers kept", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    const fill = async (label: string, value: string) => {
      await page.getByLabel(label, { exact: true }).click();
      await page.getByLabel(label, { exact: true }).fill(value);
    };
    await fill("Full name", EXPECTED.name);
    await fill("Email", EXPECTED.email);
    await fill("Website", EXPECTED.website);
    await fill("Depart date", EXPECTED.departDate);
    await fill("Arrival time", EXPECTED.arrival);
    await fill("Travellers", "3");
    await fill("Budget", "1500.5");
    await page.getByRole("radiogroup", { name: "Travel insurance" }).getByText("Yes", { exact: true }).click();
    await page.getByLabel("Seat", { exact: true }).selectOption("window");
    await page.getByLabel("Cabin", { exact: true }).selectOption({ label: "Business" });
    await page.getByText("veg", { exact: true }).click();
    await page.getByText("fish", { exact: true }).click();
    await page.getByText("Lounge access", { exact: true }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("heading", { name: "Review your answers" }).waitFor();
    await assertAccessible(page);
    await screenshots(bench, page, "form-review");
    await page.getByRole("button", { name: "Edit" }).click();
    assert.equal(await page.getByLabel("Full name", { exact: true }).inputValue(), EXPECTED.name, "answers are kept");
    await page.getByRole("radiogroup", { name: "Newsletter" }).getByText("Yes", { exact: true }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual(await answers(page), [
      { tag: "mcp-elicit-form", detail: { action: "accept", content: { ...EXPECTED, newsletter: true } } },
    ]);
    await assertClean(page, errors);
    await page.close();
  });

  test("an invalid email shows its message next to the field, blocks Submit and takes the focus", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    await page.getByLabel("Full name", { exact: true }).fill("Ada");
    await page.getByLabel("Email", { exact: true }).fill("not-an-email");
    await page.getByLabel("Depart date", { exact: true }).fill("2026-06-15");
    await page.getByRole("radiogroup", { name: "Travel insurance" }).getByText("No", { exact: true }).click();
    await page.getByLabel("Seat", { exact: true }).selectOption("aisle");
    await page.getByText("meat", { exact: true }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    const email = page.getByLabel("Email", { exact: true });
    assert.equal(await email.getAttribute("aria-invalid"), "true");
    const describedBy = (await email.getAttribute("aria-describedby"))!.split(" ");
    const message = "Email must be an email address, like name@example.com";
    const described = await page
      .locator("mcp-elicit-form")
      .evaluate((el, ids) => ids.map((id) => el.shadowRoot!.getElementById(id)?.textContent), describedBy);
    assert.ok(described.includes(message), `aria-describedby names the message: ${JSON.stringify(described)}`);
    assert.ok(await hasFocus(page, "Email"), "the first invalid field has the focus");
    assert.equal(await page.getByRole("heading", { name: "Review your answers" }).count(), 0, "Submit is blocked");
    assert.equal(await page.getByText(message).count(), 1, "one message, next to the field");
    await assertAccessible(page);
    await screenshots(bench, page, "form-error");
    await email.fill("ada@example.com");
    assert.equal(await page.getByText(message).count(), 0, "the message goes once the answer is valid");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    const [sent] = await answers(page);
    assert.deepEqual(sent!.detail, {
      action: "accept",
      content: {
        name: "Ada",
        email: "ada@example.com",
        departDate: "2026-06-15",
        travellers: 2,
        insurance: false,
        newsletter: false,
        seat: "aisle",
        cabin: "eco",
        meals: ["meat"],
      },
    });
    await assertClean(page, errors);
    await page.close();
  });

  test("multi-select limits: too many and too few choices are named, and required fields too", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    for (const meal of ["veg", "fish", "meat"]) await page.getByText(meal, { exact: true }).click();
    await page.getByRole("button", { name: "Submit" }).click();
    assert.equal(await page.getByText("Meals allows at most 2 choices").count(), 1);
    assert.equal(await page.getByText("Full name is required").count(), 1);
    assert.ok(await hasFocus(page, "Full name"), "the first invalid field has the focus");
    for (const meal of ["veg", "fish", "meat"]) await page.getByText(meal, { exact: true }).click();
    assert.equal(await page.getByText("Meals needs at least 1 choice").count(), 1);
    await assertClean(page, errors);
    await page.close();
  });

  test("Decline and Cancel answer without content; Cancel from the review too", async () => {
    const { page, errors } = await bench.open();
    await showForm(page);
    await page.getByRole("button", { name: "Decline" }).click();
    await page.getByRole("status").filter({ hasText: "Declined: told travel 1.0.0 no." }).waitFor();
    await showForm(page);
    await page.getByRole("button", { name: "Cancel" }).click();
    await mount(page, "mcp-elicit-form", {
      request: { message: "Confirm?", requestedSchema: { type: "object", properties: {} }, server: SERVER },
    });
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByText("(This form has no fields.)").waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "decline" }, { action: "cancel" }, { action: "cancel" }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("a host's own form: its title, no Decline, and one click on its Send label checks and sends (no review)", async () => {
    const { page, errors } = await bench.open();
    const schema = { type: "object", properties: { city: { type: "string", title: "City" } }, required: ["city"] };
    await mount(page, "mcp-elicit-form", {
      request: {
        message: "search_flights takes these arguments.",
        requestedSchema: schema,
        server: SERVER,
        own: { title: "Arguments for search_flights", submitLabel: "Call search_flights" },
      },
    });
    assert.equal(await page.getByRole("heading", { name: "Arguments for search_flights" }).count(), 1);
    assert.equal(await page.getByRole("button", { name: "Decline" }).count(), 0);
    assert.equal(await page.getByRole("button", { name: "Submit" }).count(), 0, "the one button says what it does");
    // Still checked first: an empty required field is refused in place, nothing sent.
    await page.getByRole("button", { name: "Call search_flights" }).click();
    assert.equal(await page.getByLabel("City").getAttribute("aria-invalid"), "true");
    assert.deepEqual(await answers(page), []);
    await page.getByLabel("City").fill("Paris");
    await page.getByRole("button", { name: "Call search_flights" }).click();
    assert.equal(await page.getByRole("heading", { name: "Review your answers" }).count(), 0);
    assert.equal(await page.getByRole("status").innerText(), "Sent.");
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "accept", content: { city: "Paris" } }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("a schema that cannot be shown is reported in the element, with Decline and Cancel", async () => {
    const { page, errors } = await bench.open();
    const nested = { type: "object", properties: { address: { type: "object", properties: {} } } };
    await mount(page, "mcp-elicit-form", { request: { message: "Where?", requestedSchema: nested, server: SERVER } });
    const alert = await page.getByRole("alert").innerText();
    assert.match(alert, /^This form cannot be shown: .*address/s);
    await mount(page, "mcp-elicit-form", { request: { message: "Where?", server: SERVER } });
    assert.match(await page.getByRole("alert").innerText(), /no requestedSchema object/);
    await page.getByRole("button", { name: "Decline" }).click();
    assert.deepEqual(
      (await answers(page)).map((a) => a.detail),
      [{ action: "decline" }],
    );
    await assertClean(page, errors);
    await page.close();
  });

  test("a field that looks like it asks for a secret gets the terminal's warning above the form", async () => {
    const { page, errors } = await bench.open();
    const card = { type: "object", properties: { cardNumber: { type: "string", title: "Card number" }, city: { type: "string" } } };
    await mount(page, "mcp-elicit-form", { request: { message: "Pay", requestedSchema: card, server: SERVER } });
    assert.deepEqual(await page.getByRole("list", { name: "Warnings" }).getByRole("listitem").allInnerTexts(), [
      `Warning: ${sensitiveWarning("Card number", "payment-card")}`,
    ]);
    await assertAccessible(page);
    // On the server's own hosted page (URL mode) such fields are expected: no warning there.
    await mount(page, "mcp-elicit-form", { request: { message: "Pay", requestedSchema: card, server: SERVER, hosted: true } });
    assert.equal(await page.getByRole("list", { name: "Warnings" }).count(), 0);
    await assertClean(page, errors);
    await page.close();
  });

  test("a host themes it with custom properties and ::part", async () => {
    const { page, errors } = await bench.open();
    await page.addStyleTag({ url: "/theme.css" });
    await mount(page, "mcp-elicit-form", { request: { message: "Hi", requestedSchema: TRIP, server: SERVER } }, { class: "themed" });
    assert.equal(
      await page.getByRole("button", { name: "Submit" }).evaluate((el) => getComputedStyle(el).backgroundColor),
      "rgb(107, 47, 191)",
    );
    assert.equal(
      await page.getByRole("heading", { name: "Form from travel 1.0.0" }).evaluate((el) => getComputedStyle(el).textTransform),
      "uppercase",
    );
    await assertClean(page, errors);
    await page.close();
  });
});
