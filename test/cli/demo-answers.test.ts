// `elicit demo --answers`, as a script runs it: the built bin with an answers file, the URL-mode pages
// completed by a headless browser (or declined without one), the itinerary saved into the root, and
// the fare watch (a task) at the end. Split from call.test.ts, whose tests it outlasted on a busy machine.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { CLI_TEST, runCli } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { needs } from "../helpers/needs.js";

const { dir, file } = scratchFiles("elicit-demo-answers-");

describe("elicit demo --answers", () => {
  // The first two complete the URL-mode pages in the demo's headless Chromium (src/cli/demo-browser.ts).
  const skip = needs("chromium");
  test(
    "books the Barcelona trip with the person's typed model answer and saves the itinerary into the root",
    { ...CLI_TEST, skip },
    async () => {
      const root = join(dir, "trips");
      mkdirSync(root);
      const answers = file(
        "demo.yaml",
        `- sample: { text: "BCN-14 BCN-11 BCN-12\\nAer Lingus leaves earliest." }
- match: "Barcelona"
  action: accept
  content: { confirmBooking: true, seatPreference: window, roomType: sea view }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
- match: "passport"
  action: accept
- match: "payment page|SkyMiles"
  action: accept
- match: "payment page|SkyMiles"
  action: accept
`,
      );
      const r = await runCli(["demo", "--answers", answers, "--root", root], { timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /1 of 7: search flights[\s\S]*44 round-trip fares/);
      // The URL-mode steps, completed by the headless browser on the server's own pages: first the
      // passport's photo page (Barcelona is international), uploaded before the booking is made.
      assert.match(
        r.stderr,
        /\(match "passport"\) answered "Upload the photo page of the traveler's passport: Barcelona is an international /,
      );
      assert.match(
        r.stdout,
        /── 3 of 7: book the trip ──\n\(A headless browser completes the page at 127\.0\.0\.1[^\n]*\)\nBooked! Reference ELC-[0-9A-Z]{6}: [^\n]*Passport photo page received \(image\/png, \d+ bytes\)\./,
      );
      assert.match(
        r.stdout,
        /── 4 of 7: pay on the server's secure payment page ──\n\(A headless browser completes the page at 127\.0\.0\.1/,
      );
      assert.match(
        r.stdout,
        /Paid \$3,\d{3} for booking ELC-[0-9A-Z]{6} with the Visa card ending 4242 \(a test card: nothing real was charged\)/,
      );
      assert.match(r.stdout, /SkyMiles account connected: Demo Traveler \(member demo\)/);
      assert.doesNotMatch(r.stdout + r.stderr, /could not complete|4242 4242 4242 4242[^,]|4242424242424242/);
      assert.match(r.stdout, /chosen by the client's model \(typed-by-person\)[\s\S]*1\. BCN-14/);
      const reference = /Booked! Reference (ELC-[0-9A-Z]{6})/.exec(r.stdout)?.[1];
      assert.ok(reference, r.stdout);
      const saved = join(root, `itinerary-${reference}.md`);
      assert.ok(existsSync(saved), r.stdout);
      assert.deepEqual(readdirSync(root), [`itinerary-${reference}.md`]);
      assert.match(readFileSync(saved, "utf8"), new RegExp(`${reference}[\\s\\S]*Ana Garcia`));
    },
  );

  test(
    "on 2025-11-25 (the live request path) the headless browser pays and connects too, and reports nothing after the end",
    CLI_TEST,
    async (t) => {
      // Skipped from inside: as an option, the skip would make prettier re-wrap this long-named test whole.
      if (skip) return t.skip(skip);
      const root = join(dir, "live");
      mkdirSync(root);
      const answers = file(
        "demo-live.yaml",
        `- sample: { text: "BCN-11" }
- { match: "Barcelona vacation", action: accept, content: { confirmBooking: true } }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
- { match: "passport", action: accept }
- { match: "payment page", action: accept }
- { match: "SkyMiles", action: accept }
`,
      );
      const r = await runCli(["demo", "--answers", answers, "--root", root, "--protocol", "2025-11-25"], { timeoutMs: 120_000 });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /protocol 2025-11-25/);
      assert.match(r.stdout, /Passport photo page received \(image\/png, \d+ bytes\)\./);
      assert.match(r.stdout, /Paid \$3,000 for booking ELC-[0-9A-Z]{6} with the Visa card ending 4242/);
      assert.match(r.stdout, /SkyMiles account connected: Demo Traveler \(member demo\)/);
      assert.doesNotMatch(r.stdout, /could not complete/);
    },
  );

  test("without a headless browser the URL-mode steps are declined, saying why, and the demo goes on", CLI_TEST, async () => {
    const root = join(dir, "no-browser");
    mkdirSync(root);
    const answers = file(
      "demo-no-browser.yaml",
      `- sample: { text: "BCN-11" }
- match: "Barcelona vacation"
  action: accept
  content: { confirmBooking: true }
- match: "contact|traveler"
  action: accept
  content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 123 456" }
- { match: "passport", action: accept }
- { match: "payment page", action: accept }
- { match: "SkyMiles", action: accept }
`,
    );
    const r = await runCli(["demo", "--answers", answers, "--root", root], {
      timeoutMs: 120_000,
      env: { ELICIT_CHROMIUM: join(dir, "no-such-chromium") },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stdout,
      /\(No headless browser: ELICIT_CHROMIUM names ".*no-such-chromium", which does not exist\. The page at 127\.0\.0\.1 was not opened, so this step is declined\.\)/,
    );
    // The passport page too: the trip is booked without it, and the result says the airline still needs it.
    assert.match(
      r.stdout,
      /Booked! Reference ELC-[0-9A-Z]{6}: [^\n]*The passport's photo page was not given \(declined\): the airline needs it before check-in\./,
    );
    assert.match(r.stdout, /Nothing was charged: you declined to pay; the booking stays unpaid\./);
    assert.match(r.stdout, /No SkyMiles account was connected \(declined\)/);
    assert.match(r.stdout, /── 6 of 7: save the itinerary ──\nSaved the itinerary/);
  });

  test("without a terminal or --answers it exits 2 and says why", CLI_TEST, async () => {
    const r = await runCli(["demo"]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /run it in a terminal, give --web to answer in a browser, or --answers FILE to answer from a file/);
  });
});

/** Characters a terminal acts on, or that make text read differently: C0 but \n, DEL, C1, bidi and other format characters. */
