// `elicit demo --web --no-browser` end to end: the built bin (npm test builds first) as a child process
// with no model configured, its page driven in headless Chromium as a person would (the model request
// reviewed, its answer typed, the booking and contact forms filled), the terminal showing the progress
// and results, and the itinerary saved into the root.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { SAMPLE_PASSPORT_NAME, samplePassportPng } from "../../src/cli/sample-passport.js";
import { BIN } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { ADDRESS_LINE, browserForTests, startElicit } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";
import { answerBooking, answerSampling, SLOW } from "../helpers/travel-page.js";

const { browser } = browserForTests();
const scratch = scratchFiles("elicit-demo-web-");

describe("elicit demo --web", { skip: needs("chromium") }, () => {
  test("search, the model request reviewed and its answer typed, the booking and contact forms, the itinerary saved", async () => {
    assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
    const root = join(scratch.dir, "trips");
    mkdirSync(root);
    const elicit = startElicit(BIN, ["demo", "--web", "--no-browser", "--root", root], NO_MODEL_ENV);
    const page = await browser().newPage();
    try {
      const address = (await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!;
      await page.goto(address);

      // Step 2: the model request, then the answer the person writes (there is no model).
      await page.getByRole("heading", { name: "Model request from mcp-elicit-travel" }).waitFor(SLOW);
      await page.getByText("Request 1 of 1, from mcp-elicit-travel 1.0.0").waitFor();
      await page
        .getByText(/Analyze these flight options/)
        .first()
        .waitFor();
      await answerSampling(page);

      // Step 3: the booking confirmation, then the contact details.
      await page.getByText(/Please confirm your Barcelona vacation booking details/).waitFor(SLOW);
      await page.getByRole("heading", { name: "Form from mcp-elicit-travel 1.0.0" }).waitFor();
      await answerBooking(page);

      // Still step 3: Barcelona is international, so the passport's photo page goes to the server's upload
      // page (a new tab after consent): the sample PNG is chosen in its picker and sent, then the trip is booked.
      await page.getByText(/Upload the photo page of the traveler's passport: Barcelona is an international trip/).waitFor(SLOW);
      await page.getByLabel("I checked the address and want to open it").check();
      const [upload] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Open link" }).click()]);
      await upload.getByText("One file of at most 10 MiB").waitFor(SLOW);
      await upload
        .getByLabel("Choose a file")
        .setInputFiles({ name: SAMPLE_PASSPORT_NAME, mimeType: "image/png", buffer: samplePassportPng() });
      await upload.getByRole("button", { name: "Send" }).click();
      await upload.getByRole("heading", { name: "Done" }).waitFor(SLOW);
      await upload.close();

      // Step 4 (URL mode): the link to the server's payment page, opened in a new tab after consent; the card goes there.
      await page
        .getByRole("heading", { name: /^Link from mcp-elicit-travel/ })
        .first()
        .waitFor(SLOW);
      await page.getByText(/Pay \$3,150 for booking ELC-[0-9A-Z]{6} \(Barcelona\) on the secure payment page/).waitFor();
      await page.getByLabel("I checked the address and want to open it").check();
      const [tab] = await Promise.all([page.context().waitForEvent("page"), page.getByRole("button", { name: "Open link" }).click()]);
      await tab.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
      await tab.getByLabel("Expiry (MM/YY)", { exact: true }).fill("12/34");
      await tab.getByLabel("CVC", { exact: true }).fill("123");
      await tab.getByLabel("Name on card", { exact: true }).fill("Ana Garcia");
      await tab.getByRole("button", { name: "Submit" }).click();
      await tab.getByRole("button", { name: "Send" }).click();
      await tab.getByRole("heading", { name: "Done" }).waitFor(SLOW);
      await tab.close();
      // Step 5: SkyMiles, declined in the page.
      await page.getByText(/Connect your SkyMiles frequent-flyer account/).waitFor(SLOW);
      await page.getByRole("button", { name: "Decline" }).click();
      // Step 7, a task: its question comes to the page when the fare drops.
      await page.getByText("Barcelona dropped to $885 (under your $900). Book this fare?").waitFor(SLOW);
      await page.getByRole("radiogroup", { name: "Book the Barcelona fare at $885" }).getByLabel("Yes").check();
      await page.getByRole("button", { name: "Submit" }).click();
      await page.getByRole("button", { name: "Send" }).click();

      assert.equal(await elicit.exit, 0, elicit.stderr());
      assert.match(
        elicit.stdout(),
        /── 7 of 7: watch for a cheaper fare[^\n]*──\nelicit: The task is running on the server \(task [0-9a-f-]{36}\)\n/,
      );
      assert.match(elicit.stdout(), /Booked the Barcelona fare at \$885: reference FW-BCN-885\./);
      const out = elicit.stdout();
      assert.match(out, /── 1 of 7: search flights ──\n44 round-trip fares from New York to Barcelona/);
      assert.match(out, /Paid \$3,150 for booking ELC-[0-9A-Z]{6} with the Visa card ending 4242/);
      assert.match(out, /No SkyMiles account was connected \(declined\)/);
      assert.doesNotMatch(out + elicit.stderr(), /4242 4242 4242 4242|4242424242424242/, "the card never reaches the host");
      assert.match(out, /chosen by the client's model \(typed-by-person\) from 44 options:\n1\. BCN-11: British Airways/);
      const reference = /Booked! Reference (ELC-[0-9A-Z]{6}): /.exec(out)?.[1];
      assert.ok(reference, out);
      assert.match(out, /Passport photo page received \(image\/png, \d+ bytes\)\./);
      assert.match(
        out,
        /for Ana Garcia \(seat: aisle, room: city view, travel insurance \$150\)\. Total to pay \$3,150 \(nothing is charged until pay_for_booking\)\./,
      );
      assert.match(out, new RegExp(`Saved the itinerary for ${reference} to \\S*/itinerary-${reference}\\.md`));
      // The terminal said when each question waited in the browser.
      assert.match(elicit.stderr(), /^elicit: in the browser: a model request to review from mcp-elicit-travel$/m);
      assert.equal(elicit.stderr().match(/^elicit: in the browser: a form from mcp-elicit-travel$/gm)?.length, 3);

      assert.deepEqual(readdirSync(root), [`itinerary-${reference}.md`]);
      const itinerary = readFileSync(join(root, `itinerary-${reference}.md`), "utf8");
      assert.match(itinerary, /Traveler: Ana Garcia \(ana@example\.com, \+34 600 123 456\)/);
      assert.match(itinerary, /Seat preference: aisle/);
      // The page's server stopped with the demo; the page says so.
      await page.getByText("The host ended this session.").waitFor();
    } finally {
      elicit.kill();
      await page.close();
    }
  });
});
