// `elicit demo` in a real pseudo-terminal, walked as a person would: the built bin (npm test builds
// first) with no model configured, so the person reviews the model request and types the answer,
// fills the booking and contact forms, and finds the itinerary saved in the root.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { contactForm } from "../../src/servers/travel/book-trip.js";
import { SAMPLE_PASSPORT_NAME, samplePassportPng } from "../../src/cli/sample-passport.js";
import { validateContent } from "../../src/schema/validate.js";
import { BIN } from "../helpers/cli.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram, tempDirs, type ProgramSession } from "../helpers/pty.js";

const tempDir = tempDirs("elicit-demo-pty-");
const NO_MODEL = NO_MODEL_ENV;
const SLOW = SLOW_MS;

function startDemo(root: string): ProgramSession {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  // BROWSER names nothing that runs: an accepted link is printed for the person (here: the test) to open.
  return startProgram(process.execPath, [BIN, "demo", "--root", root], {
    env: { ...NO_MODEL, BROWSER: "/nonexistent/elicit-test-browser" },
    name: "demo",
  });
}

/**
 * The person's browser at the upload page, as its own script does it: open the link (the page binds
 * this browser by a cookie and carries a CSRF token), then POST the file from the page's origin.
 */
async function uploadOnPage(address: string, name: string, bytes: Uint8Array): Promise<void> {
  const page = new URL(address.replace("/connect/", "/file/"));
  const opened = await fetch(page);
  assert.equal(opened.status, 200, `the upload page opens: ${opened.status}`);
  const cookie = opened.headers.getSetCookie()[0]!.split(";")[0]!;
  const csrf = /"csrf":"([^"]+)"/.exec(await opened.text())?.[1];
  assert.ok(csrf, "the page carries its CSRF token");
  const headers = { cookie, origin: page.origin, "x-csrf-token": csrf, "x-file-name": name, "x-file-index": "0", "x-file-total": "1" };
  const sent = await fetch(page, { method: "POST", headers, body: new Uint8Array(bytes) });
  assert.ok(sent.ok, `the upload is stored: ${sent.status} ${await sent.text()}`);
}

/** The line of an open question: "? Label" then the end of the line or what is typed. */
const asking = (label: string) => new RegExp(`^\\? ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?: |$)`, "m");

/** Steps 1 and 2: the search, then the model request reviewed and the answer typed by the person (BCN-11 first: the seed's $3,000 trip). */
async function throughModelReview(s: ProgramSession): Promise<void> {
  const request = await s.waitFor("? Send this request to the model?", { timeoutMs: SLOW });
  assert.match(
    request,
    /No model is configured \(ELICIT_MODEL…\): when the server asks for one, you read the request and type the answer yourself\./,
  );
  assert.match(
    request,
    /── 1 of 7: search flights ──\n44 round-trip fares from New York to Barcelona \(BCN\), June 15-22, per traveler\. The server hands them all to the model/,
  );
  const review = request.slice(request.indexOf("── 2 of 7: the best flight, chosen by the client's model ──"));
  assert.match(review, /^Model request from mcp-elicit-travel 1\.0\.0$/m, "says which server asks");
  assert.match(review, /No model is configured: if you approve, you type the answer yourself\./);
  assert.match(review, /System prompt:\n {4}You are a travel expert helping users find the best flights based on their preferences/);
  assert.match(review, /\[1\] user:\n {6}Analyze these flight options and recommend the best choice:\n {6}BCN-01: /);
  // The 44 fares are folded: the first lines and a count, with a way to read them all.
  assert.ok((review.match(/^ {6}BCN-\d\d: /gm)?.length ?? 0) < 5, "the flight list is folded");
  assert.match(review, /^ {6}… \d+ more lines \(\d+ characters in all\)$/m);
  assert.match(review, /Model hints: claude-3-5-sonnet/);
  assert.match(review, /Max tokens: +1500/);
  assert.match(review, /Priorities: +cost 0\.3, speed 0\.2, intelligence 0\.9/);
  assert.match(review, /❯ Approve \(then type the answer yourself\)\n {2}Read the request in full\n {2}Edit the request\n {2}Deny/);

  // Read in full: page by page, every fare and the preferences, then back to the same question.
  s.press(KEY.down, KEY.enter);
  const first = await s.waitFor(/\(page 1 of (\d+)\)/, { after: "✔ Send this request to the model? Read the request in full" });
  const pages = Number(/\(page 1 of (\d+)\)/.exec(first)![1]);
  assert.ok(pages >= 2, "more than one page");
  for (let page = 2; page <= pages; page++) {
    await s.waitFor("? Read on?", { after: `(page ${page - 1} of ${pages})` });
    s.press(KEY.enter); // Next page
    await s.waitFor(`(page ${page} of ${pages})`);
  }
  const read = await s.waitFor("? Send this request to the model?", { after: `(page ${pages} of ${pages})` });
  assert.match(read, /❯ Approve/);
  const text = s.screen().slice(s.screen().lastIndexOf("(page 1 of"));
  assert.equal(new Set(text.match(/BCN-\d\d: /g)).size, 44, "every fare was readable");
  assert.match(text, /User preferences: morning departure, max 1 layover/);
  s.press(KEY.enter);

  const ask = await s.waitFor(asking("Your answer:"), { after: "✔ Send this request to the model?" });
  assert.match(ask, /^Approved\.$/m);
  assert.match(ask, /No model provider is configured: type the answer the server will receive \(Esc rejects\)\./);
  assert.match(ask, /Answering the user's message: Analyze these flight options/);
  s.type("BCN-11, BCN-14, BCN-12");
  s.press(KEY.enter);
  const answer = await s.waitFor("? Send this answer to mcp-elicit-travel 1.0.0?", { after: "✔ Your answer:" });
  assert.match(answer, /Written by you \(no model provider\)\.\n {2}Text:\n {4}BCN-11, BCN-14, BCN-12\n/);
  s.press(KEY.enter); // Approve

  const best = await s.waitFor(/^3\. BCN-12: /m, { after: "Sent the answer to mcp-elicit-travel 1.0.0.", timeoutMs: SLOW });
  assert.match(
    best,
    /chosen by the client's model \(typed-by-person\) from 44 options:\n1\. BCN-11: British Airways[^\n]*\n2\. BCN-14: Aer Lingus/,
  );
}

/** The booking confirmation form's opening screen: the seed's summary and total. */
async function bookingForm(s: ProgramSession): Promise<string> {
  const start = await s.waitFor("? Answer this form?", { after: "── 3 of 7: book the trip ──", timeoutMs: SLOW });
  assert.match(
    start,
    /^Form from mcp-elicit-travel 1\.0\.0\n {2}Please confirm your Barcelona vacation booking details:\n {2}Barcelona flights June 15-22, beachfront hotel, total \$3,000\./m,
  );
  assert.match(start, /Flights: British Airways economy \(BCN-11\)/);
  assert.match(start, /❯ Fill it in \(4 fields\)\n {2}Decline \(tell mcp-elicit-travel no\)\n {2}Cancel/);
  return start;
}

describe("elicit demo in a terminal, with no model configured", () => {
  test("80×24: the model step keeps its header on screen; denying it goes on with the server's rule; an unused root is removed", async () => {
    assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
    const s = startProgram(process.execPath, [BIN, "demo"], { env: NO_MODEL, name: "demo", cols: 80, rows: 24 });
    try {
      const intro = await s.waitFor(/The itinerary will be saved into (\S+)\.$/m, { timeoutMs: SLOW });
      const root = /The itinerary will be saved into (\S+)\.$/m.exec(intro)![1]!;
      assert.ok(existsSync(root), "the demo made its root");
      await s.waitFor("? Send this request to the model?", { timeoutMs: SLOW });
      const seen = s.viewport();
      for (const line of [
        "── 2 of 7: the best flight, chosen by the client's model ──",
        "Model request from mcp-elicit-travel 1.0.0",
        "Analyze these flight options",
        "? Send this request to the model?",
        "Deny",
      ]) {
        assert.ok(seen.includes(line), `${JSON.stringify(line)} is on the 24 rows:\n${seen}`);
      }
      s.press(KEY.down, KEY.down, KEY.down, KEY.enter); // Deny
      const ranked = await s.waitFor(/ranked by the built-in rule/, { after: "✔ Send this request to the model? Deny", timeoutMs: SLOW });
      assert.match(
        ranked,
        /You denied the model request, so no model saw the flights: the server ranked them by its built-in rule instead\.\n.*ranked by the built-in rule \(no model was asked\):/,
      );
      assert.doesNotMatch(ranked, /the client asked for the rule|User rejected sampling request/, "said in the person's terms");
      assert.doesNotMatch(s.screen(), /"code"|the server refused the call/, "no raw JSON-RPC, and nobody blames the server");
      await bookingForm(s);
      s.press(KEY.down, KEY.enter); // Decline
      await s.waitFor("The demo ends here.", { timeoutMs: SLOW });
      assert.equal(await s.exitCode(SLOW), 0);
      assert.ok(!existsSync(root), "the root the demo made, still empty, is removed");
    } finally {
      s.close();
    }
  });

  test("review the model request, type its answer, book through both forms (with an edit and a bad email), save the itinerary", async () => {
    const root = tempDir();
    const s = startDemo(root);
    try {
      await throughModelReview(s);

      // Step 3: the seed's booking confirmation.
      await bookingForm(s);
      s.press(KEY.enter);
      const confirm = await s.waitFor("? Confirm booking *", { after: "✔ Answer this form?" });
      assert.match(
        confirm,
        /Confirm the booking \(Flights \+ Hotel = \$3,000\)\n\? Confirm booking \*\n❯ \(choose Yes or No\)\n {2}Yes\n {2}No$/m,
      );
      s.press(KEY.down, KEY.enter); // Yes
      const seat = await s.waitFor(asking("Seat preference"));
      assert.match(seat, /Preferred seat type for flights\n {2}\(optional: choose Skip to leave it out\)/);
      assert.match(seat, /❯ window\n {2}aisle\n {2}no preference\n {2}Skip \(no answer\)/);
      s.press(KEY.enter); // window
      const room = await s.waitFor(asking("Room type"));
      assert.match(room, /Preferred room type at hotel/);
      assert.match(room, /❯ sea view\n {2}city view\n {2}garden view\n {2}Skip \(no answer\)/);
      s.press(KEY.down, KEY.enter); // city view
      const insurance = await s.waitFor(asking("Travel insurance"));
      assert.match(insurance, /Add travel insurance \(\$150\)/);
      assert.match(insurance, / {2}Yes\n❯ No\n {2}Skip \(no answer\)/, "the form's default (No) is preselected");
      s.press(KEY.up, KEY.enter); // Yes

      const review = await s.waitFor("? Send these answers?", { after: "Review your answers for mcp-elicit-travel 1.0.0" });
      assert.match(review, /Confirm booking \* +Yes\n {2}Seat preference +window\n {2}Room type +city view\n {2}Travel insurance +Yes\n/);
      s.press(KEY.down, KEY.enter); // Edit an answer
      const which = await s.waitFor("? Which answer?");
      assert.match(
        which,
        /❯ Confirm booking \*: Yes\n {2}Seat preference: window\n {2}Room type: city view\n {2}Travel insurance: Yes\n {2}Back to the review/,
      );
      s.press(KEY.down, KEY.enter); // Seat preference
      const again = await s.waitFor(asking("Seat preference"), { after: "✔ Which answer?" });
      assert.match(again, /❯ window/, "the earlier answer is preselected");
      s.press(KEY.down, KEY.enter); // aisle
      const edited = await s.waitFor("? Send these answers?", { after: "✔ Seat preference aisle" });
      assert.match(edited, /Seat preference +aisle\n/);
      s.press(KEY.enter); // Submit

      // The contact details, with one bad email first.
      const contact = await s.waitFor("? Answer this form?", { after: "Sent your answers to mcp-elicit-travel 1.0.0.", timeoutMs: SLOW });
      assert.match(
        contact,
        /Form from mcp-elicit-travel 1\.0\.0\n {2}Who is traveling\? Barcelona, June 15-22: the airline and hotel need the traveler's contact details\./,
      );
      assert.match(contact, /Fill it in \(3 fields\)/);
      s.press(KEY.enter);
      assert.match(
        await s.waitFor("? Full name *", { after: "Who is traveling?" }),
        /As it appears on your passport\n {2}\(2 to 100 characters\)/,
      );
      s.type("Ana Garcia");
      s.press(KEY.enter);
      assert.match(
        await s.waitFor("? Email *", { after: "Who is traveling?" }),
        /Where the confirmation and itinerary go\n {2}\(an email address, like name@example\.com; at most 254 characters\)/,
      );
      s.type("ana@example");
      s.press(KEY.enter);
      const verdict = validateContent(contactForm(), { fullName: "Ana Garcia", email: "ana@example", phone: "+34 600 123 456" });
      const message = verdict.ok ? assert.fail("ana@example must be refused") : verdict.errors.find((e) => e.field === "email")!.message;
      assert.equal(message, "Email must be an email address, like name@example.com");
      const refused = await s.waitFor(`Error: ${message}`, { after: "? Email *" });
      assert.match(refused, /^\? Email \* ana@example\nError: /m, "the typed text stays, to be corrected");
      s.press(KEY.ctrlU);
      s.type("ana@example.com");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Phone *", { after: "✔ Email * ana@example.com" }), /With country code, e.g\. \+1 212 555 0100/);
      s.type("+34 600 123 456");
      s.press(KEY.enter);
      const people = await s.waitFor("? Send these answers?", { after: "✔ Phone * +34 600 123 456" });
      assert.match(people, /Full name \* +Ana Garcia\n {2}Email \* +ana@example\.com\n {2}Phone \* +\+34 600 123 456\n/);
      s.press(KEY.enter);

      // Still step 3: Barcelona is international, so the passport's photo page, on the server's upload page (a link).
      const passport = await s.waitFor("? Open this link in your browser?", { after: "✔ Send these answers? Submit", timeoutMs: SLOW });
      assert.match(
        passport,
        /Link from mcp-elicit-travel 1\.0\.0\n {2}Upload the photo page of the traveler's passport: Barcelona is an international trip, and the airline needs it before check-in \(a JPEG, PNG or PDF up to 10 MB\)\./,
      );
      const address = /^ {2}Address: (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(passport)![1]!;
      s.type("y");
      s.press(KEY.enter);
      await s.waitFor(/Open this address yourself:\n {2}\S+/, { after: "✔ Open this link in your browser? Yes" });
      await s.waitFor("Waiting for you to finish the page at", { after: "Open this address yourself:" });
      assert.doesNotMatch(s.screen(), /Booked!/, "nothing is booked before the passport is in");
      const png = samplePassportPng();
      await uploadOnPage(address, SAMPLE_PASSPORT_NAME, png);

      // Booked, then step 4: the itinerary saved into the root.
      const booked = await s.waitFor(/^Booked! Reference ELC-[0-9A-Z]{6}: /m, { after: "Open this address yourself:", timeoutMs: SLOW });
      assert.match(booked, new RegExp(`Passport photo page received \\(image/png, ${png.length} bytes\\)\\.`));
      const reference = /Booked! Reference (ELC-[0-9A-Z]{6})/.exec(booked)![1]!;
      assert.match(
        booked,
        /for Ana Garcia \(seat: aisle, room: city view, travel insurance \$150\)\. Total to pay \$3,150 \(nothing is charged until pay_for_booking\)\. The confirmation goes to ana@example\.com/,
      );
      // Steps 4 and 5 (URL mode): the links to the server's payment page and to SkyMiles, declined at the consent (No is the default).
      const pay = await s.waitFor("? Open this link in your browser?", {
        after: "── 4 of 7: pay on the server's secure payment page ──",
        timeoutMs: SLOW,
      });
      assert.match(pay, /Link from mcp-elicit-travel 1\.0\.0\n {2}Pay \$3,150 for booking ELC-[0-9A-Z]{6} \(Barcelona\)/);
      s.press(KEY.enter);
      await s.waitFor("Nothing was charged: you declined to pay; the booking stays unpaid.", { timeoutMs: SLOW });
      const miles = await s.waitFor("? Open this link in your browser?", {
        after: "── 5 of 7: connect your SkyMiles frequent-flyer account ──",
        timeoutMs: SLOW,
      });
      assert.match(miles, /Connect your SkyMiles frequent-flyer account/);
      s.press(KEY.enter);
      const saved = await s.waitFor(/^Saved the itinerary for ELC-[0-9A-Z]{6} to .* \(\d+ bytes\) in the root /m, {
        after: "── 6 of 7: save the itinerary ──",
        timeoutMs: SLOW,
      });
      assert.match(saved, new RegExp(`Saved the itinerary for ${reference} to \\S*/itinerary-${reference}\\.md`));

      // Step 7, a task: the call answers at once, the watch runs on the server, and its question comes when the fare drops.
      const fare = await s.waitFor("? Answer this form?", { after: "── 7 of 7: watch for a cheaper fare", timeoutMs: SLOW });
      assert.match(fare, /^elicit: The task is running on the server \(task [0-9a-f-]{36}\)$/m);
      assert.doesNotMatch(s.screen(), /^elicit: task /m, "no raw task id as the headline");
      assert.match(fare, /Barcelona dropped to \$885 \(under your \$900\)\. Book this fare\?/);
      s.press(KEY.enter); // Fill it in
      const book = await s.waitFor(asking("Book the Barcelona fare at $885"), { after: "Book this fare?" });
      assert.match(book, / {2}Yes\n❯ No\n/, "No is preselected: booking takes a yes");
      s.press(KEY.up, KEY.enter); // Yes
      await s.waitFor("? Send these answers?", { after: "✔ Book the Barcelona fare at $885 * Yes" });
      s.press(KEY.enter); // Submit
      await s.waitFor("Booked the Barcelona fare at $885: reference FW-BCN-885.", { timeoutMs: SLOW });

      assert.equal(await s.exitCode(SLOW), 0);
      assert.ok(s.cursorVisible(), "the cursor is visible again");

      const file = join(root, `itinerary-${reference}.md`);
      assert.deepEqual(readdirSync(root), [`itinerary-${reference}.md`], "exactly the itinerary, nothing else, in the root");
      const itinerary = readFileSync(file, "utf8");
      assert.match(itinerary, new RegExp(`^# Barcelona trip, June 15-22 — booking ${reference}$`, "m"));
      assert.match(itinerary, /Traveler: Ana Garcia \(ana@example\.com, \+34 600 123 456\)/);
      assert.match(itinerary, /Total: \$3,150 \(flights \$1,180 \+ hotel \$1,820 \+ travel insurance \$150\)/);
      assert.match(itinerary, /Seat preference: aisle/);
      assert.match(itinerary, /Room: city view/);
    } finally {
      s.close();
    }
  });

  test("declining the booking form books nothing, saves nothing, and exits 0", async () => {
    const root = tempDir();
    const s = startDemo(root);
    try {
      await throughModelReview(s);
      await bookingForm(s);
      s.press(KEY.down, KEY.enter); // Decline
      const end = await s.waitFor("The demo ends here.", { after: "✔ Answer this form? Decline", timeoutMs: SLOW });
      assert.match(
        end,
        /^Declined: told mcp-elicit-travel 1\.0\.0 no\.\nNothing was booked: you declined the booking confirmation\.\n\nNothing was booked, so there is no itinerary to save\. The demo ends here\.$/m,
      );
      assert.equal(await s.exitCode(SLOW), 0);
      assert.doesNotMatch(s.screen(), /of 7: pay|Who is traveling/, "no contact form, no payment");
      assert.deepEqual(readdirSync(root), [], "nothing in the root");
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });
});
