// terminalUI in a real pseudo-terminal: each test starts test/fixtures/terminal/driver.ts in a pty,
// presses keys as a person would, and checks both the rendered screen and the answer that came back.
// Related flows share one driver process (steps run in order) to keep the spawns few.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { SamplingAnswerView, SamplingRequestView } from "../../src/client/ui.js";
import type { RequestedSchema } from "../../src/schema/types.js";
import { validateContent } from "../../src/schema/validate.js";
import type { Step } from "../fixtures/terminal/scenario.js";
import { listenLocal } from "../helpers/local-server.js";
import { KEY, startDriver, tempDirs, type PtySession } from "../helpers/pty.js";

/** Runs `body` against a driver for `steps`, then checks it exited by itself with the terminal restored (cooked mode, cursor shown). */
async function session(
  steps: Step[],
  body: (s: PtySession) => Promise<void>,
  options: Parameters<typeof startDriver>[1] = {},
): Promise<void> {
  const s = startDriver(steps, options);
  try {
    await body(s);
    const { code, stdinRaw } = await s.exit();
    assert.equal(code, 0, "the driver ends normally");
    assert.equal(stdinRaw, false, "the terminal is out of raw mode");
    assert.ok(s.cursorVisible(), "the cursor is visible again");
  } finally {
    s.close();
  }
}

/** The message validateContent gives for one bad value: the UI must show exactly this. */
function messageFor(schema: RequestedSchema, content: Record<string, unknown>, field: string): string {
  const verdict = validateContent(schema, content);
  assert.equal(verdict.ok, false);
  return verdict.ok ? "" : verdict.errors.find((e) => e.field === field)!.message;
}

/** The line of an open question: "? Label" then the end of the line or what is typed. */
const asking = (label: string) => new RegExp(`^\\? ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?: |$)`, "m");

/** Passes the opening question ("Answer this form?") of the form with `message` with "Fill it in". */
async function fillIn(s: PtySession, message: string): Promise<void> {
  await s.waitFor("? Answer this form?", { after: message });
  s.press(KEY.enter);
}

const KINDS: RequestedSchema = {
  type: "object",
  properties: {
    email: { type: "string", title: "Email", format: "email", description: "Where the tickets go" },
    nickname: { type: "string", title: "Nickname", minLength: 2, maxLength: 12 },
    departDate: { type: "string", title: "Departure date", format: "date" },
    budget: { type: "number", title: "Budget", minimum: 0 },
    travelers: { type: "integer", title: "Travelers", minimum: 1, maximum: 9 },
    insurance: { type: "boolean", title: "Insurance" },
    newsletter: { type: "boolean", title: "Newsletter" },
    seat: {
      type: "string",
      title: "Seat",
      oneOf: [
        { const: "window", title: "Window seat" },
        { const: "aisle", title: "Aisle seat" },
      ],
    },
    meal: { type: "string", title: "Meal", enum: ["veg", "fish"], enumNames: ["Vegetarian", "Fish"] },
    extras: {
      type: "array",
      title: "Extras",
      items: {
        anyOf: [
          { const: "bag", title: "Checked bag" },
          { const: "wifi", title: "Wi-Fi" },
          { const: "lounge", title: "Lounge" },
        ],
      },
      minItems: 1,
      maxItems: 2,
    },
  },
  required: ["email", "departDate", "travelers", "insurance", "seat", "extras"],
};

describe("terminalUI forms", () => {
  test("every field kind: hints, labels, required marks, skipping, and the values that come back", async () => {
    await session([{ kind: "form", message: "Book your Lisbon trip", schema: KINDS }], async (s) => {
      const start = await s.waitFor("? Answer this form?");
      assert.match(start, /Form from travel 1\.2\.0/);
      assert.match(start, /Book your Lisbon trip/);
      assert.match(start, /Fields marked \* are required\. Esc or Ctrl-C cancels\./);
      assert.match(start, /Fill it in \(10 fields\)/);
      s.press(KEY.enter);

      const email = await s.waitFor("? Email *");
      assert.match(email, /Where the tickets go/);
      assert.match(email, /\(an email address, like name@example\.com\)/);
      s.type("ana@example.com");
      s.press(KEY.enter);

      const nickname = await s.waitFor(asking("Nickname"));
      assert.match(nickname, /\(2 to 12 characters; optional: leave empty to skip\)/);
      assert.doesNotMatch(nickname, /\? Nickname \*/, "an optional field has no *");
      s.press(KEY.enter); // empty: skipped

      assert.match(await s.waitFor("? Departure date *"), /\(a date as YYYY-MM-DD, like 2026-06-15\)/);
      s.type("2026-06-15");
      s.press(KEY.enter);
      assert.match(await s.waitFor(asking("Budget")), /\(a number of at least 0; optional: leave empty to skip\)/);
      s.type("1200.5");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Travelers *"), /\(a whole number from 1 to 9\)/);
      s.type("2");
      s.press(KEY.enter);

      // A yes/no without a default pre-selects neither: Enter on the placeholder asks again.
      const insurance = await s.waitFor("? Insurance *");
      assert.match(insurance, /❯ \(choose Yes or No\)\n {2}Yes\n {2}No$/m);
      s.press(KEY.enter);
      await s.waitFor("Error: Insurance is required");
      s.press(KEY.down, KEY.down, KEY.enter); // No
      const newsletter = await s.waitFor(asking("Newsletter"));
      assert.match(newsletter, /❯ Skip \(no answer\)\n {2}Yes\n {2}No$/m, "an optional yes/no starts on skip, not on yes");
      s.press(KEY.enter);

      const seat = await s.waitFor("? Seat *");
      assert.match(seat, /Window seat/);
      assert.match(seat, /Aisle seat/);
      assert.doesNotMatch(seat.slice(seat.indexOf("? Seat *")), /Skip \(no answer\)/, "a required choice has no skip");
      s.press(KEY.down, KEY.enter);
      const meal = await s.waitFor(asking("Meal"));
      assert.match(meal, /Vegetarian\n {2}Fish\n {2}Skip \(no answer\)/, "legacy enumNames are the labels");
      s.press(KEY.down, KEY.enter);

      assert.match(await s.waitFor("? Extras *"), /\(choose 1 to 2 choices\)/);
      s.press(KEY.space, KEY.down, KEY.space, KEY.enter);

      const review = await s.waitFor("? Send these answers?");
      const lines = review.slice(review.lastIndexOf("Review your answers for travel 1.2.0"));
      assert.match(lines, /Email \* +ana@example\.com/);
      assert.match(lines, /Nickname +\(skipped\)/);
      assert.match(lines, /Departure date \* +2026-06-15/);
      assert.match(lines, /Budget +1200\.5/);
      assert.match(lines, /Travelers \* +2/);
      assert.match(lines, /Insurance \* +No/);
      assert.match(lines, /Newsletter +\(skipped\)/);
      assert.match(lines, /Seat \* +Aisle seat/);
      assert.match(lines, /Meal +Fish/);
      assert.match(lines, /Extras \* +Checked bag, Wi-Fi/);
      s.press(KEY.enter); // Submit

      assert.deepEqual(await s.result(0), {
        action: "accept",
        content: {
          email: "ana@example.com",
          departDate: "2026-06-15",
          budget: 1200.5,
          travelers: 2,
          insurance: false,
          seat: "aisle",
          meal: "fish",
          extras: ["bag", "wifi"],
        },
      });
      await s.waitFor(/Sent your answers to travel 1\.2\.0\./);
    });
  });

  test("an invalid entry shows the project's message for the field and asks again", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: {
        email: { type: "string", title: "Email", format: "email" },
        travelers: { type: "integer", title: "Travelers", minimum: 1, maximum: 9 },
      },
      required: ["email", "travelers"],
    };
    await session([{ kind: "form", message: "Who travels?", schema }], async (s) => {
      await fillIn(s, "Who travels?");
      await s.waitFor("? Email *");
      s.press(KEY.enter);
      await s.waitFor(`Error: ${messageFor(schema, {}, "email")}`); // "Email is required"
      s.type("ana@");
      s.press(KEY.enter);
      const bad = await s.waitFor(`Error: ${messageFor(schema, { email: "ana@" }, "email")}`);
      assert.match(bad, /\? Email \* ana@$/m, "the rejected text stays in the line to be corrected");
      s.type("example.com");
      s.press(KEY.enter);

      await s.waitFor("? Travelers *");
      s.type("two");
      s.press(KEY.enter);
      await s.waitFor(`Error: ${messageFor(schema, { travelers: "two" }, "travelers")}`); // must be a whole number
      s.press(KEY.ctrlU);
      s.type("12");
      s.press(KEY.enter);
      const range = await s.waitFor(`Error: ${messageFor(schema, { travelers: 12 }, "travelers")}`);
      assert.match(range, /Travelers must be at most 9/);
      s.press(KEY.ctrlU);
      s.type("3");
      s.press(KEY.enter);

      await s.waitFor("? Send these answers?");
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "accept", content: { email: "ana@example.com", travelers: 3 } });
    });
  });

  test("review: edit an answer, see it changed, then submit", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: {
        name: { type: "string", title: "Name" },
        seat: {
          type: "string",
          title: "Seat",
          oneOf: [
            { const: "w", title: "Window" },
            { const: "a", title: "Aisle" },
          ],
        },
      },
      required: ["name", "seat"],
    };
    await session([{ kind: "form", message: "Who sits where?", schema }], async (s) => {
      await fillIn(s, "Who sits where?");
      await s.waitFor("? Name *");
      s.type("Ana");
      s.press(KEY.enter);
      await s.waitFor("? Seat *");
      s.press(KEY.enter);
      const review = await s.waitFor("? Send these answers?");
      assert.match(review, /Name \* +Ana\n +Seat \* +Window/);
      assert.match(review, /❯ Submit\n {2}Edit an answer\n {2}Decline \(tell travel no\)\n {2}Cancel \(dismiss without answering\)/);
      s.press(KEY.down, KEY.enter);

      const which = await s.waitFor("? Which answer?");
      assert.match(which, /Name \*: Ana/);
      assert.match(which, /Seat \*: Window/);
      s.press(KEY.enter);
      await s.waitFor(/\? Name \* Ana$/m); // prefilled with the current answer
      s.press(KEY.ctrlU);
      s.type("Bea");
      s.press(KEY.enter);

      await s.waitFor(/Name \* +Bea\n +Seat \* +Window/);
      await s.waitFor("? Send these answers?");
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "accept", content: { name: "Bea", seat: "w" } });
    });
  });

  test("defaults are prefilled and Enter keeps them; clearing an optional default skips it", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: {
        name: { type: "string", title: "Name", default: "Ana" },
        travelers: { type: "integer", title: "Travelers", default: 2 },
        insurance: { type: "boolean", title: "Insurance", default: false },
        seat: {
          type: "string",
          title: "Seat",
          oneOf: [
            { const: "w", title: "Window" },
            { const: "a", title: "Aisle" },
          ],
          default: "a",
        },
        extras: {
          type: "array",
          title: "Extras",
          items: {
            anyOf: [
              { const: "bag", title: "Bag" },
              { const: "wifi", title: "Wi-Fi" },
            ],
          },
          default: ["wifi"],
        },
        notes: { type: "string", title: "Notes", default: "none" },
      },
      required: ["name", "travelers", "insurance", "seat", "extras"],
    };
    await session([{ kind: "form", message: "Check the usual", schema }], async (s) => {
      await fillIn(s, "Check the usual");
      await s.waitFor(/\? Name \* Ana$/m);
      s.press(KEY.enter);
      await s.waitFor(/\? Travelers \* 2$/m);
      s.press(KEY.enter);
      await s.waitFor(/\? Insurance \*\n {2}Yes\n❯ No/);
      s.press(KEY.enter);
      await s.waitFor(/\? Seat \*\n {2}Window\n❯ Aisle/);
      s.press(KEY.enter);
      await s.waitFor(/\? Extras \*\n❯◯ Bag\n {1}◉ Wi-Fi/);
      s.press(KEY.enter);
      await s.waitFor(/\? Notes none$/m);
      s.press(KEY.ctrlU, KEY.enter);

      const review = await s.waitFor("? Send these answers?");
      assert.match(review, /Notes +\(skipped\)/);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), {
        action: "accept",
        content: { name: "Ana", travelers: 2, insurance: false, seat: "a", extras: ["wifi"] },
      });
    });
  });

  test("multiple choice honours minItems and maxItems; an optional one left empty is skipped", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: {
        extras: { type: "array", title: "Extras", items: { type: "string", enum: ["bag", "wifi", "lounge"] }, minItems: 1, maxItems: 2 },
        snacks: { type: "array", title: "Snacks", items: { type: "string", enum: ["nuts", "fruit"] } },
      },
      required: ["extras"],
    };
    await session([{ kind: "form", message: "Extras?", schema }], async (s) => {
      await fillIn(s, "Extras?");
      await s.waitFor("? Extras *");
      s.press(KEY.enter);
      await s.waitFor(`Error: ${messageFor(schema, { extras: [] }, "extras")}`); // needs at least 1 choice
      s.press(KEY.space, KEY.down, KEY.space, KEY.down, KEY.space);
      await s.waitFor(/◉ bag\n.*◉ wifi\n.*◉ lounge/);
      s.press(KEY.enter);
      await s.waitFor(`Error: ${messageFor(schema, { extras: ["bag", "wifi", "lounge"] }, "extras")}`); // at most 2
      s.press(KEY.space, KEY.enter); // unselect lounge
      const snacks = await s.waitFor(asking("Snacks"));
      assert.match(snacks, /optional: select none to skip/);
      s.press(KEY.enter);
      const review = await s.waitFor("? Send these answers?");
      assert.match(review, /Extras \* +bag, wifi\n +Snacks +\(skipped\)/);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "accept", content: { extras: ["bag", "wifi"] } });
    });
  });

  test("a long message: folded with a count, read in full page by page, then answered", async () => {
    const schema: RequestedSchema = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] };
    const terms = Array.from(
      { length: 40 },
      (_, i) => `Term ${String(i + 1).padStart(2, "0")}: a condition of the fare that fills the row`,
    );
    await session([{ kind: "form", message: ["Please read the fare rules:", ...terms].join("\n"), schema }], async (s) => {
      const shown = await s.waitFor("? Answer this form?");
      assert.match(shown, /Term 11: [^\n]*\n {2}… 29 more lines \(\d+ characters in all\)/);
      assert.doesNotMatch(shown, /Term 12:/, "the rest is folded");
      assert.match(shown, /❯ Fill it in \(1 field\)\n {2}Read the message in full\n {2}Decline/);
      s.press(KEY.down, KEY.enter);
      const first = await s.waitFor(/\(page 1 of (\d+)\)/);
      const pages = Number(/\(page 1 of (\d+)\)/.exec(first)![1]);
      for (let page = 2; page <= pages; page++) {
        await s.waitFor("? Read on?", { after: `(page ${page - 1} of ${pages})` });
        s.press(KEY.enter);
      }
      await s.waitFor("? Answer this form?", { after: `(page ${pages} of ${pages})` });
      assert.equal(new Set(s.screen().match(/Term \d\d:/g)).size, 40, "every line was readable");
      s.press(KEY.enter);
      await s.waitFor("? Name *");
      s.type("Ana");
      s.press(KEY.enter);
      await s.waitFor("? Send these answers?");
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "accept", content: { name: "Ana" } });
    });
  });

  test("decline, at the start or on the review screen", async () => {
    const schema: RequestedSchema = { type: "object", properties: { name: { type: "string", title: "Name" } }, required: ["name"] };
    const steps: Step[] = [
      { kind: "form", message: "First question", schema },
      { kind: "form", message: "Second question", schema },
    ];
    await session(steps, async (s) => {
      const start = await s.waitFor("? Answer this form?");
      assert.match(start, /Decline \(tell travel no\)/);
      s.press(KEY.down, KEY.enter);
      assert.deepEqual(await s.result(0), { action: "decline" });
      await s.waitFor(/Declined: told travel 1\.2\.0 no\./);

      await fillIn(s, "Second question");
      await s.waitFor("? Name *", { after: "Second question" });
      s.type("Ana");
      s.press(KEY.enter);
      await s.waitFor("? Send these answers?");
      s.press(KEY.down, KEY.down, KEY.enter);
      assert.deepEqual(await s.result(1), { action: "decline" });
    });
  });

  test("cancel with Esc, with Ctrl-C, and when the server withdraws the request; the process lives on", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: { name: { type: "string", title: "Name" }, seat: { type: "string", enum: ["w", "a"] } },
      required: ["name"],
    };
    const steps: Step[] = [
      { kind: "form", message: "Question one", schema },
      { kind: "form", message: "Question two", schema },
      { kind: "form", message: "Question three", schema },
    ];
    await session(steps, async (s) => {
      await fillIn(s, "Question one");
      await s.waitFor("? Name *", { after: "Question one" });
      s.type("An");
      s.press(KEY.esc);
      assert.deepEqual(await s.result(0), { action: "cancel" });
      assert.match(await s.waitFor("Cancelled", { after: "Question one" }), /\? Name \* An\nCancelled: nothing was sent\./);

      await fillIn(s, "Question two");
      // The cancelled question's "? Name * An" stays above: only a new one counts.
      await s.waitFor("? Name *", { after: "Question two" });
      s.type("Ana");
      s.press(KEY.enter);
      await s.waitFor(asking("Seat"));
      s.press(KEY.ctrlC);
      assert.deepEqual(await s.result(1), { action: "cancel" });
      assert.match(await s.waitFor("Cancelled", { after: "Question two" }), /Cancelled: nothing was sent\./);

      await s.waitFor("? Answer this form?", { after: "Question three" });
      s.signal("SIGUSR2");
      assert.deepEqual(await s.result(2), { action: "cancel" });
      await s.waitFor(/Cancelled: travel 1\.2\.0 withdrew the request\./);
    });
  });

  test("requests that arrive together are asked one after the other, on an output stream of the caller's", async () => {
    const schema: RequestedSchema = { type: "object", properties: { city: { type: "string", title: "City" } }, required: ["city"] };
    const steps: Step[] = [
      {
        kind: "together",
        steps: [
          { kind: "form", message: "Where from?", schema },
          { kind: "form", message: "Where to?", schema },
        ],
      },
    ];
    await session(
      steps,
      async (s) => {
        const first = await s.waitFor("? Answer this form?");
        assert.match(first, /Where from\?/);
        assert.doesNotMatch(first, /Where to\?/, "the second waits until the first is answered");
        s.press(KEY.enter);
        await s.waitFor("? City *", { after: "Where from?" });
        s.type("Porto");
        s.press(KEY.enter);
        await s.waitFor("? Send these answers?", { after: "Where from?" });
        s.press(KEY.enter);

        await fillIn(s, "Where to?");
        await s.waitFor("? City *", { after: "Where to?" });
        s.type("Faro");
        s.press(KEY.enter);
        await s.waitFor("? Send these answers?", { after: "Where to?" });
        s.press(KEY.enter);
        assert.deepEqual(await s.result(0), [
          { action: "accept", content: { city: "Porto" } },
          { action: "accept", content: { city: "Faro" } },
        ]);
      },
      { customOutput: true },
    );
  });

  test("server text cannot reach the terminal as escape sequences; secrets are warned about and masked; notices", async () => {
    const schema: RequestedSchema = {
      type: "object",
      properties: { password: { type: "string", title: "Pass\u001b[8mword\u001b]0;pwned\u0007" } },
      required: ["password"],
    };
    const steps: Step[] = [
      { kind: "form", message: "Log in\u001b]52;c;ZXZpbA==\u0007 \u001b[2Jnow \u009b31m", schema, unsanitized: true },
      { kind: "notice", message: "Declined 3 more requests\u001b[1A over the rate limit" },
    ];
    await session(steps, async (s) => {
      const start = await s.waitFor("? Answer this form?");
      assert.match(start, /Log in now/);
      assert.match(start, /Warning: "Password" looks like it asks for a password/);
      s.press(KEY.enter);
      await s.waitFor("? Password *");
      s.type("hunter2");
      await s.waitFor(/\? Password \* •••••••$/m);
      // A notice while the question is open waits below it rather than break into its line.
      s.signal("SIGUSR1");
      await s.lineWhere((l) => "noticed" in l);
      s.press(KEY.enter);
      await s.waitFor(/✔ Password \* •••••••\nNotice \(travel\): The server sent a progress message while you were answering\.\n/);
      const review = await s.waitFor("? Send these answers?");
      assert.match(review, /Password \* +•••••••/);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "accept", content: { password: "hunter2" } });
      await s.result(1);
      await s.waitFor(/Notice \(travel\): Declined 3 more requests over the rate limit/);

      await s.exit(); // everything it printed is on the screen now
      assert.doesNotMatch(s.screen(), /hunter2/);
      const raw = s.raw();
      for (const bad of ["\u001b]52", "\u001b]0;", "\u001b[2J", "\u001b[8m", "\u009b", "\u001b[1A over"]) {
        assert.ok(!raw.includes(bad), `no ${JSON.stringify(bad)} from the request reaches the terminal`);
      }
    });
  });
});

describe("terminalUI URL mode", () => {
  test("consent shows both forms of a punycode host and its warnings; only yes opens it", async () => {
    const steps: Step[] = [
      { kind: "url", message: "Sign in to pay", url: "https://login.xn--80ak6aa92e.com/pay?id=7" },
      { kind: "url", message: "Connect your calendar", url: "https://accounts.example.com/oauth?state=1" },
      { kind: "url", message: "Pay here", url: "http://user@192.168.1.10:8080/pay" },
    ];
    await session(steps, async (s) => {
      const shown = await s.waitFor("? Open this link in your browser?", { after: "Link from" });
      assert.match(shown, /Link from travel 1\.2\.0\n {2}Sign in to pay/);
      assert.match(shown, /Address: https:\/\/login\.xn--80ak6aa92e\.com\/pay\?id=7/);
      assert.match(shown, /Host: +login\.xn--80ak6aa92e\.com/);
      assert.deepEqual(
        s.underlined(),
        ["xn--80ak6aa92e.com", "xn--80ak6aa92e.com"],
        "the registrable domain is highlighted, in the host and on its own",
      );
      assert.match(shown, /Reads as: login\.аррӏе\.com/);
      assert.match(shown, /Domain: +xn--80ak6aa92e\.com \(reads as аррӏе\.com\)/);
      assert.match(
        shown,
        /Warning: The address uses an internationalized name: it reads as login\.аррӏе\.com but is really login\.xn--80ak6aa92e\.com, and can pass for login\.apple\.com/,
      );
      assert.match(shown, /\(y\/N\)/, "the consent defaults to No");
      assert.equal(s.lines().filter((l) => "opened" in l).length, 0, "nothing is opened before consent");
      s.type("y");
      s.press(KEY.enter);
      assert.equal(await s.result(0), "accept");
      const opened = s.lines().findIndex((l) => "opened" in l);
      assert.deepEqual(s.lines()[opened], { opened: "https://login.xn--80ak6aa92e.com/pay?id=7", step: 0 });
      assert.ok(opened < s.lines().findIndex((l) => "result" in l && l.step === 0), "opened before answering accept");
      await s.waitFor(/Opened in your browser: https:\/\/login\.xn--80ak6aa92e\.com\/pay\?id=7/);

      const second = await s.waitFor("? Open this link in your browser?", { after: "Connect your calendar" });
      assert.match(second, /Domain: +example\.com/);
      s.press(KEY.enter); // the default: No
      assert.equal(await s.result(1), "decline");
      await s.waitFor(/Declined: the link was not opened\./);

      const third = await s.waitFor("? Open this link in your browser?", { after: "Pay here" });
      assert.match(third, /Warning: The address is an IPv4 address \(192\.168\.1\.10\)/);
      assert.match(third, /Warning: The address has the user name “user” before “@”/);
      assert.match(third, /Warning: The link is not encrypted/);
      assert.match(third, /Warning: The address uses port 8080/);
      s.press(KEY.esc);
      assert.equal(await s.result(2), "cancel");
      await s.waitFor(/Cancelled: the link was not opened\./);
      assert.deepEqual(
        s.lines().filter((l) => "opened" in l),
        [{ opened: "https://login.xn--80ak6aa92e.com/pay?id=7", step: 0 }],
        "only the accepted link was opened",
      );
    });
  });

  test("without colour (NO_COLOR) nothing is lost: plain labels carry every warning", async () => {
    const steps: Step[] = [{ kind: "url", message: "Pay here", url: "http://pay.example.co.uk/checkout" }];
    await session(
      steps,
      async (s) => {
        const shown = await s.waitFor("? Open this link in your browser?", { after: "Pay here" });
        assert.match(shown, /Host: +pay\.example\.co\.uk\n {2}Domain: +example\.co\.uk/);
        assert.match(shown, /Warning: The link is not encrypted/);
        s.press(KEY.enter);
        assert.equal(await s.result(0), "decline");
        await s.exit();
        assert.deepEqual(s.underlined(), []);
        assert.doesNotMatch(s.raw(), /\u001b\[[0-9;]*m/, "no colour or style codes at all");
      },
      { env: { NO_COLOR: "1" } },
    );
  });

  test("the wait for a kit page says n asks for a new link; n shows the server's refusal, then the new link, opened as the first", async () => {
    const id = "p".repeat(43);
    const asked: string[] = [];
    const pages = await listenLocal((req, res) => {
      asked.push(`${req.method} ${req.url} ${req.headers["content-type"]}`);
      res.setHeader("Content-Type", "application/json");
      if (asked.length === 1) res.writeHead(403).end(JSON.stringify({ error: "This link was made for someone else." }));
      else res.end(JSON.stringify({ url: `${pages.url.origin}/elicit/form/${id}?link=fresh` }));
    }, "/elicit/");
    const link = `${pages.url.origin}/elicit/connect/${id}`;
    try {
      await session([{ kind: "pageWait", what: "travel 1.2.0 (pay_for_booking)", message: "Pay here", url: link }], async (s) => {
        await s.waitFor("? Open this link in your browser?", { after: "Pay here" });
        s.type("y");
        s.press(KEY.enter);
        const host = pages.url.host;
        const waiting = `Waiting for you to finish the page at ${host}; then travel 1.2.0 (pay_for_booking) goes on (press n for a new link, Ctrl-C stops)`;
        await s.waitFor(waiting, { after: "Opened in your browser" });
        s.type("n");
        await s.waitFor(/^No new link: This link was made for someone else\.$/m, { after: "✔ Open this link in your browser? Yes" });
        await s.waitFor(waiting, { after: "No new link" });
        s.type("n");
        const fresh = `${pages.url.origin}/elicit/form/${id}?link=fresh`;
        await s.waitFor(
          `New link from ${host} (the old one no longer opens the page in another browser):\n  ${fresh}\nOpened in your browser.`,
        );
        assert.deepEqual(
          s
            .lines()
            .filter((l) => "opened" in l)
            .map((l) => (l as { opened: string }).opened),
          [link, fresh],
          "the new link is opened as the first was",
        );
        assert.deepEqual(asked, Array(2).fill(`POST /elicit/renew/${id} application/json`));
        s.signal("SIGUSR1");
        assert.equal(await s.result(0), "accept");
      });
    } finally {
      pages.close();
    }
  });

  test("waitForUrl for a kit page (a -32042 flow): the notice says n; n gets a new link and opens it; the wait goes on to completion", async () => {
    const id = "q".repeat(43);
    const pages = await listenLocal((_req, res) => {
      res.setHeader("Content-Type", "application/json");
      res.end(JSON.stringify({ url: `${pages.url.origin}/elicit/form/${id}?link=again` }));
    }, "/elicit/");
    const link = `${pages.url.origin}/elicit/connect/${id}`;
    const host = pages.url.host;
    try {
      await session([{ kind: "wait", message: "Finish paying", host, url: link }], async (s) => {
        const shown = await s.waitFor(`Waiting for ${host}… (r = done, continue, n = new link)`);
        assert.match(
          shown,
          /When you have finished in the browser, press r to continue\. c or Esc cancels\. n asks for a new link \(one opened in another browser works only there\)\./,
        );
        s.type("n");
        const fresh = `${pages.url.origin}/elicit/form/${id}?link=again`;
        await s.waitFor(
          `New link from ${host} (the old one no longer opens the page in another browser):\n  ${fresh}\nOpened in your browser.`,
        );
        assert.deepEqual(
          s
            .lines()
            .filter((l) => "opened" in l)
            .map((l) => (l as { opened: string }).opened),
          [fresh],
        );
        await s.waitFor(`Waiting for ${host}… (r = done, continue, n = new link)`, { after: "Opened in your browser." });
        s.signal("SIGUSR1");
        assert.equal(await s.result(0), "completed");
      });
    } finally {
      pages.close();
    }
  });

  test("waitForUrl: completed, retry, and cancel by c, Esc, Ctrl-C or a withdrawn request", async () => {
    const wait = (host: string): Step => ({ kind: "wait", message: "Finish signing in", host });
    const steps = ["a.example.com", "b.example.com", "c.example.com", "d.example.com", "e.example.com", "f.example.com"].map(wait);
    const spinner = (host: string) => `Waiting for ${host}… (r = done, continue)`;
    await session(steps, async (s) => {
      const first = await s.waitFor(spinner("a.example.com"));
      assert.match(first, /When you have finished in the browser, press r to continue\. c or Esc cancels\./);
      s.signal("SIGUSR1");
      assert.equal(await s.result(0), "completed");
      await s.waitFor(/Finished at a\.example\.com\./);

      await s.waitFor(spinner("b.example.com"));
      s.type("r");
      assert.equal(await s.result(1), "retry");
      await s.waitFor(/Retrying now \(b\.example\.com\)\./);

      await s.waitFor(spinner("c.example.com"));
      s.type("c");
      assert.equal(await s.result(2), "cancel");
      await s.waitFor(/Cancelled: stopped waiting for c\.example\.com\./);

      await s.waitFor(spinner("d.example.com"));
      s.press(KEY.esc);
      assert.equal(await s.result(3), "cancel");

      await s.waitFor(spinner("e.example.com"));
      s.press(KEY.ctrlC);
      assert.equal(await s.result(4), "cancel");

      await s.waitFor(spinner("f.example.com"));
      s.signal("SIGUSR2");
      assert.equal(await s.result(5), "cancel");
      await s.waitFor(/Cancelled: travel 1\.2\.0 withdrew the request\./);
      await s.exit();
      assert.doesNotMatch(s.screen(), /Waiting for [a-f]\.example\.com…/, "no spinner is left behind");
    });
  });
});

const REQUEST: SamplingRequestView = {
  systemPrompt: "You are a travel assistant.",
  messages: [
    { role: "user", text: "Plan a day in Lisbon." },
    { role: "assistant", text: "Morning: Alfama.\nAfternoon: Belém." },
    { role: "user", text: "Add a lunch place." },
  ],
  maxTokens: 400,
  modelHints: ["claude-sonnet", "gpt-5"],
  priorities: { cost: 0.3, speed: 0.5, intelligence: 0.9 },
  tools: ["search_restaurants"],
  model: "gpt-5-mini",
};

describe("terminalUI sampling review", () => {
  test("the request: approve, edit (the edit comes back), deny", async () => {
    const steps: Step[] = [
      { kind: "reviewRequest", request: REQUEST },
      { kind: "reviewRequest", request: REQUEST },
      { kind: "reviewRequest", request: REQUEST },
    ];
    await session(steps, async (s) => {
      const shown = await s.waitFor("? Send this request to the model?");
      assert.match(shown, /Model request from travel 1\.2\.0/);
      assert.match(shown, /Model: +gpt-5-mini \(the model that will answer\)/);
      assert.match(shown, /System prompt:\n {4}You are a travel assistant\./);
      assert.match(
        shown,
        /\[1\] user:\n {6}Plan a day in Lisbon\.\n {4}\[2\] assistant:\n {6}Morning: Alfama\.\n {6}Afternoon: Belém\.\n {4}\[3\] user:\n {6}Add a lunch place\./,
      );
      assert.match(shown, /Model hints: claude-sonnet, gpt-5/);
      assert.match(shown, /Max tokens: +400/);
      assert.match(shown, /Priorities: +cost 0\.3, speed 0\.5, intelligence 0\.9/);
      assert.match(shown, /Tools: +search_restaurants/);
      assert.match(shown, /❯ Approve \(send it to gpt-5-mini\)\n {2}Edit the request\n {2}Deny/);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "approve" });

      await s.waitFor("? Send this request to the model?");
      s.press(KEY.down, KEY.enter);
      const menu = await s.waitFor("? What do you want to change?");
      assert.match(menu, /Message 2 \(assistant\): Morning: Alfama\. Afternoon: Belém\./);
      assert.match(menu, /Max tokens \(400\)/);
      s.press(KEY.down, KEY.down, KEY.enter); // Message 2
      await s.waitFor(/\? Message 2 \(assistant\): Morning: Alfama\.\\nAfternoon: Belém\.$/m); // prefilled, line break as \n
      await s.waitFor(/Type \\n for a line break/);
      s.press(KEY.ctrlU);
      s.type("Morning: Sintra.\\nEvening: fado.");
      s.press(KEY.enter);
      const edited = await s.waitFor("? Send this request to the model?", { after: "[2] assistant (edited)" });
      assert.match(edited, /^\[2\] assistant \(edited\):\n {6}Morning: Sintra\.\n {6}Evening: fado\./);
      s.press(KEY.down, KEY.enter);
      await s.waitFor("? What do you want to change?");
      s.press(KEY.up, KEY.up, KEY.enter); // Max tokens (the list wraps: up from the top)
      await s.waitFor(/\? Max tokens: 400$/m);
      s.press(KEY.ctrlU);
      s.type("0");
      s.press(KEY.enter);
      await s.waitFor("Error: Max tokens must be a whole number of at least 1");
      s.press(KEY.ctrlU);
      s.type("250");
      s.press(KEY.enter);
      await s.waitFor(/Max tokens: +250 \(edited\)/);
      await s.waitFor("? Send this request to the model?");
      s.press(KEY.enter);
      assert.deepEqual(await s.result(1), {
        action: "approve",
        edit: { messages: { 1: "Morning: Sintra.\nEvening: fado." }, maxTokens: 250 },
      });
      await s.waitFor(/Approved, with your changes\./);

      await s.waitFor("? Send this request to the model?");
      s.press(KEY.down, KEY.down, KEY.enter);
      assert.deepEqual(await s.result(2), { action: "deny" });
      await s.waitFor(/Denied: travel 1\.2\.0 gets no answer from a model\./);
    });
  });

  test("the answer: approve, edit (prefilled), reject", async () => {
    const answer: SamplingAnswerView = {
      model: "gpt-5-mini",
      text: "Lunch at Time Out Market.",
      stopReason: "endTurn",
      toolCalls: ['search_restaurants({"city":"Lisbon"})'],
    };
    const steps: Step[] = [
      { kind: "reviewAnswer", answer, request: REQUEST },
      { kind: "reviewAnswer", answer, request: REQUEST },
      { kind: "reviewAnswer", answer, request: REQUEST },
    ];
    await session(steps, async (s) => {
      const shown = await s.waitFor("? Send this answer to travel 1.2.0?");
      assert.match(
        shown,
        /Answer for travel 1\.2\.0\n {2}Model: +gpt-5-mini\n {2}Text:\n {4}Lunch at Time Out Market\.\n {2}Stop reason: endTurn\n {2}Tool calls:\n {4}search_restaurants\(\{"city":"Lisbon"\}\)/,
      );
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "approve" });

      await s.waitFor("? Send this answer to travel 1.2.0?");
      s.press(KEY.down, KEY.enter);
      await s.waitFor(/\? Answer: Lunch at Time Out Market\.$/m);
      s.press(KEY.ctrlU);
      s.type("Lunch at Cervejaria Ramiro.");
      s.press(KEY.enter);
      await s.waitFor(/Text \(edited\):\n {4}Lunch at Cervejaria Ramiro\./);
      await s.waitFor("? Send this answer to travel 1.2.0?");
      s.press(KEY.enter);
      assert.deepEqual(await s.result(1), { action: "approve", text: "Lunch at Cervejaria Ramiro." });

      await s.waitFor("? Send this answer to travel 1.2.0?");
      s.press(KEY.down, KEY.down, KEY.enter);
      assert.deepEqual(await s.result(2), { action: "reject" });
      await s.waitFor(/Rejected: travel 1\.2\.0 gets no answer\./);
    });
  });

  test("a long request: folded with a count, read in full page by page, a multi-line message edited in $EDITOR", async () => {
    const fares = Array.from(
      { length: 60 },
      (_, i) => `Fare ${String(i + 1).padStart(2, "0")}: an option with a long description that fills the row`,
    );
    const long: SamplingRequestView = {
      ...REQUEST,
      messages: [{ role: "user", text: ["Pick one:", ...fares].join("\n") }, REQUEST.messages[1]!],
    };
    const log = join(tempDirs("elicit-editor-")(), "editor.log");
    const fakeEditor = fileURLToPath(new URL("../fixtures/terminal/fake-editor.mjs", import.meta.url));
    const env = { EDITOR: `${process.execPath} ${fakeEditor}`, FAKE_EDITOR_LOG: log };
    await session(
      [{ kind: "reviewRequest", request: long }],
      async (s) => {
        const shown = await s.waitFor("? Send this request to the model?");
        assert.match(
          shown,
          /\[1\] user:\n {6}Pick one:\n {6}Fare 01: [^\n]*\n {6}Fare 02: [^\n]*\n {6}… 58 more lines \(\d+ characters in all\)\n {4}\[2\] assistant:/,
        );
        assert.doesNotMatch(shown, /Fare 03:/, "the rest is folded");
        assert.match(shown, /❯ Approve \(send it to gpt-5-mini\)\n {2}Read the request in full\n {2}Edit the request\n {2}Deny/);
        s.press(KEY.down, KEY.enter);
        const first = await s.waitFor(/\(page 1 of (\d+)\)/);
        const pages = Number(/\(page 1 of (\d+)\)/.exec(first)![1]);
        assert.ok(pages >= 2);
        for (let page = 2; page <= pages; page++) {
          await s.waitFor("? Read on?", { after: `(page ${page - 1} of ${pages})` });
          s.press(KEY.enter);
        }
        await s.waitFor("? Send this request to the model?", { after: `(page ${pages} of ${pages})` });
        assert.equal(new Set(s.screen().match(/Fare \d\d:/g)).size, 60, "every line was readable");

        s.press(KEY.down, KEY.down, KEY.enter); // Edit the request
        await s.waitFor("? What do you want to change?");
        s.press(KEY.down, KEY.down, KEY.enter); // Message 2: multi-line, so the editor opens
        await s.waitFor(/Opening message 2 \(assistant\) in your editor \(.*fake-editor\.mjs\); save and close it to go on\./);
        const edited = await s.waitFor("? Send this request to the model?", { after: "[2] assistant (edited)" });
        assert.match(edited, /^\[2\] assistant \(edited\):\n {6}Morning: Sintra\.\n {6}Afternoon: Belém\.\n {6}Evening: fado\./);
        s.press(KEY.enter);
        assert.deepEqual(await s.result(0), {
          action: "approve",
          edit: { messages: { 1: "Morning: Sintra.\nAfternoon: Belém.\nEvening: fado." } },
        });
        assert.deepEqual(
          readFileSync(log, "utf8"),
          JSON.stringify("Morning: Alfama.\nAfternoon: Belém.") + "\n",
          "the editor got the message as it was",
        );
      },
      { env },
    );
  });

  test("no model provider: the review says so, and the person types the answer", async () => {
    const { model: _model, ...noModel } = REQUEST;
    const steps: Step[] = [
      { kind: "reviewRequest", request: noModel },
      { kind: "reviewAnswer", request: noModel },
    ];
    await session(steps, async (s) => {
      const shown = await s.waitFor("? Send this request to the model?");
      assert.match(shown, /No model is configured: if you approve, you type the answer yourself\./);
      assert.match(shown, /❯ Approve \(then type the answer yourself\)/);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(0), { action: "approve" });

      const ask = await s.waitFor("? Your answer:");
      assert.match(ask, /No model provider is configured: type the answer the server will receive \(Esc rejects\)\./);
      assert.match(ask, /Answering the user's message: Add a lunch place\./);
      s.press(KEY.enter);
      await s.waitFor("Error: Your answer cannot be empty");
      s.type("Try Taberna da Rua das Flores.");
      s.press(KEY.enter);
      const review = await s.waitFor("? Send this answer to travel 1.2.0?");
      assert.match(review, /Written by you \(no model provider\)\.\n {2}Text:\n {4}Try Taberna da Rua das Flores\./);
      s.press(KEY.enter);
      assert.deepEqual(await s.result(1), { action: "approve", text: "Try Taberna da Rua das Flores." });
    });
  });
});
