// `elicit demo` in a real pseudo-terminal on a machine where no browser opens: BROWSER names a program
// that does not exist, no opener is on the PATH, or --no-browser is given. The payment link must not be
// said to have opened: the screen says to open the address yourself, then what the demo waits for.
// Ctrl-C during that wait ends the demo with a sentence, exit code 130, and no temporary folder left.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync, readdirSync, rmSync } from "node:fs";
import type { Browser, Page } from "playwright-core";
import { BIN } from "../helpers/cli.js";
import { has, needs } from "../helpers/needs.js";
import { launchChromium } from "../helpers/chromium.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram, tempDirs, type ProgramSession } from "../helpers/pty.js";

const tempDir = tempDirs("elicit-no-browser-");
const TEST = { timeout: 150_000 };
const STEP_4 = "── 4 of 7: pay on the server's secure payment page ──";

/** The demo's folders: a failed test SIGKILLs the demo, which cannot remove its own then. */
const made: string[] = [];
after(() => made.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** The demo's own temporary folders (elicit-demo-…) in the system's temp folder. */
const demoFolders = (dir: string) => new Set(readdirSync(dir).filter((name) => name.startsWith("elicit-demo-")));

function startDemo(args: string[], env: Record<string, string | undefined>): ProgramSession {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  return startProgram(process.execPath, [BIN, "demo", ...args], { env: { ...NO_MODEL_ENV, ...env }, name: "demo" });
}

/** The consent to open a link: with --no-browser it asks whether the person opens it themselves. */
const CONSENT = "? Open this link in your browser?";
const CONSENT_NO_BROWSER = "? Will you open this link yourself? (no browser is opened for you)";

/** Steps 1 to 3 the shortest way (the model request denied, the forms' defaults, the passport declined), to the payment link's consent. */
async function toPaymentLink(s: ProgramSession, consent = CONSENT): Promise<string> {
  const intro = await s.waitFor(/The itinerary will be saved into (\S+)\.$/m, { timeoutMs: SLOW_MS });
  const root = /The itinerary will be saved into (\S+)\.$/m.exec(intro)![1]!;
  made.push(root);
  await s.waitFor("? Send this request to the model?", { timeoutMs: SLOW_MS });
  s.press(KEY.down, KEY.down, KEY.down, KEY.enter); // Deny
  await s.waitFor("? Answer this form?", { after: "── 3 of 7: book the trip ──", timeoutMs: SLOW_MS });
  s.press(KEY.enter);
  await s.waitFor("? Confirm booking *");
  s.press(KEY.down, KEY.enter); // Yes
  for (const label of ["? Seat preference", "? Room type", "? Travel insurance"]) {
    await s.waitFor(label);
    s.press(KEY.enter);
  }
  await s.waitFor("? Send these answers?");
  s.press(KEY.enter);
  await s.waitFor("? Answer this form?", { after: "Sent your answers", timeoutMs: SLOW_MS });
  s.press(KEY.enter);
  for (const [label, text] of [
    ["? Full name *", "Ana Garcia"],
    ["? Email *", "ana@example.com"],
    ["? Phone *", "+34 600 123 456"],
  ] as const) {
    await s.waitFor(label);
    s.type(text);
    s.press(KEY.enter);
  }
  await s.waitFor("? Send these answers?", { after: "✔ Phone" });
  s.press(KEY.enter);
  // The passport's photo page (an upload link) is declined: the trip is booked, marked as still needing it.
  await s.waitFor(consent, { after: "Upload the photo page of the traveler's passport", timeoutMs: SLOW_MS });
  s.press(KEY.enter);
  await s.waitFor("The passport's photo page was not given (declined): the airline needs it before check-in.", { timeoutMs: SLOW_MS });
  const booked = await s.waitFor(consent, { after: STEP_4, timeoutMs: SLOW_MS });
  assert.match(s.screen(), /Total to pay \$3,000 \(nothing is charged until pay_for_booking\)\./, "the booking does not claim a charge");
  assert.doesNotMatch(s.screen(), /Total charged/);
  assert.match(booked, /Pay \$3,000 for booking ELC-[0-9A-Z]{6}/);
  return root;
}

/** The address on the line after "Open this address yourself:", as it is (a person copies it from there). */
const addressLine = (address: string) =>
  new RegExp(`Open this address yourself:\\n {2}${address.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}$`, "m");

/** Consents to the payment link; returns the address shown, and the screen from the consent on. */
async function acceptLink(s: ProgramSession, consent = CONSENT): Promise<{ address: string; after: string }> {
  const address = /^ {2}Address: (http:\/\/127\.0\.0\.1:\d+\/\S+)$/m.exec(s.screen().slice(s.screen().lastIndexOf(STEP_4)))![1]!;
  s.type("y");
  s.press(KEY.enter);
  const after = await s.waitFor(/Open this address yourself:\n {2}\S+/, { after: `✔ ${consent.slice(2)} Yes` });
  return { address, after };
}

/** The wait after the consent says what it waits for; Ctrl-C then ends the demo with a sentence and removes its folder. */
async function ctrlCWhileWaiting(s: ProgramSession, root: string, address: string): Promise<void> {
  const host = new URL(address).host;
  await s.waitFor(
    `Waiting for you to finish the page at ${host}; then mcp-elicit-travel 1.0.0 (pay_for_booking) goes on (press n for a new link, Ctrl-C stops)`,
    {
      after: "Open this address yourself:",
    },
  );
  assert.ok(existsSync(root), "the demo's folder is there while it runs");
  s.press(KEY.ctrlC);
  await s.waitFor(
    `elicit demo: stopped (Ctrl-C) at step 4 of 7: pay on the server's secure payment page. The travel server is stopped; its temporary folder ${root} is removed.`,
    { timeoutMs: SLOW_MS },
  );
  assert.equal(await s.exitCode(SLOW_MS), 130);
  assert.ok(!existsSync(root), "no temporary folder left behind");
  assert.doesNotMatch(s.screen().slice(s.screen().lastIndexOf("stopped (Ctrl-C)")), /^elicit: /m, "no error after the sentence");
  assert.ok(s.cursorVisible(), "the cursor is visible again");
}

describe("elicit demo where no browser opens", () => {
  test("BROWSER names a missing program and no opener is on the PATH: open the address yourself; Ctrl-C leaves nothing", TEST, async () => {
    // The demo's own temp folder: other files' demos, running at the same time, make elicit-demo- folders too.
    const temp = tempDir();
    const before = demoFolders(temp);
    const s = startDemo([], { BROWSER: "/nonexistent/elicit-test-browser", PATH: tempDir(), DISPLAY: ":99", TMPDIR: temp });
    try {
      const root = await toPaymentLink(s);
      assert.ok(!before.has(root.slice(root.lastIndexOf("/") + 1)), "a folder of this run");
      const { address, after } = await acceptLink(s);
      assert.match(
        after,
        /^No browser was opened: could not start the browser BROWSER names: "\/nonexistent\/elicit-test-browser" could not be started \(ENOENT\)\. Open this address yourself:$/m,
      );
      assert.match(after, addressLine(address), "the address, on a line of its own");
      assert.doesNotMatch(s.screen(), /Opened in your browser/, "nothing claims a browser opened");
      await ctrlCWhileWaiting(s, root, address);
      assert.deepEqual(
        [...demoFolders(temp)].filter((f) => !before.has(f)),
        [],
        "no elicit-demo- folder of this run",
      );
    } finally {
      s.close();
    }
  });

  test("no BROWSER and no opener on the PATH: the system's opener fails, and the screen says so", TEST, async () => {
    const s = startDemo([], { BROWSER: undefined, PATH: tempDir(), DISPLAY: ":99" });
    try {
      const root = await toPaymentLink(s);
      const { address, after } = await acceptLink(s);
      assert.match(after, /^No browser was opened: the system's opener exited with code \d+\. Open this address yourself:$/m);
      assert.match(after, addressLine(address));
      assert.doesNotMatch(s.screen(), /Opened in your browser/);
      await ctrlCWhileWaiting(s, root, address);
    } finally {
      s.close();
    }
  });

  test(
    "--no-browser: the consent asks whether you open the link yourself (not in your browser), no opener is started (the missing BROWSER would show if one were), the address is printed once",
    TEST,
    async () => {
      const s = startDemo(["--no-browser"], { BROWSER: "/nonexistent/elicit-test-browser", DISPLAY: ":99" });
      try {
        const root = await toPaymentLink(s, CONSENT_NO_BROWSER);
        assert.doesNotMatch(s.screen(), /Open this link in your browser\?/, "no offer to open a browser that --no-browser rules out");
        const { address, after } = await acceptLink(s, CONSENT_NO_BROWSER);
        assert.match(after, /^Open this address yourself:$/m);
        assert.match(after, addressLine(address));
        assert.doesNotMatch(
          s.screen(),
          /Opened in your browser|BROWSER names|No browser was opened|\)\)/,
          "no opener tried, no doubled parenthesis",
        );
        await ctrlCWhileWaiting(s, root, address);
      } finally {
        s.close();
      }
    },
  );
});

// A payment link opened in another browser belongs to that browser: the person's own browser is refused.
// n at the terminal's wait asks the travel server's pages for a new link for the same payment (the same
// person: in local mode, this machine), the old link stops admitting anyone new, and the payment
// completes in the person's browser with the new link.
describe("elicit demo: a new payment link from the terminal", { skip: needs("chromium") }, () => {
  let browser: Browser | undefined;
  before(async () => {
    if (has("chromium")) browser = await launchChromium();
  });
  after(() => browser?.close());

  /** The travel server's hosted payment form, filled with the test card and sent. */
  async function pay(page: Page): Promise<void> {
    await page.getByLabel("Card number", { exact: true }).fill("4242 4242 4242 4242");
    await page.getByLabel("Expiry (MM/YY)").fill("12/30");
    await page.getByLabel("CVC", { exact: true }).fill("123");
    await page.getByLabel("Name on card").fill("Ana Garcia");
    await page.getByRole("button", { name: "Submit" }).click();
    await page.getByRole("button", { name: "Send" }).click();
    await page.getByRole("heading", { name: "Done" }).waitFor({ timeout: SLOW_MS });
  }

  test("the link opened in another browser, n for a new link, and the payment completes with it", TEST, async () => {
    const s = startDemo(["--no-browser"], { BROWSER: "/nonexistent/elicit-test-browser", DISPLAY: ":99" });
    const other = await browser!.newContext();
    const mine = await browser!.newContext();
    try {
      await toPaymentLink(s, CONSENT_NO_BROWSER);
      const { address } = await acceptLink(s, CONSENT_NO_BROWSER);
      const host = new URL(address).host;

      // Someone else's browser opens it first: it is theirs now, and the person's own browser is refused.
      const theirs = await other.newPage();
      await theirs.goto(address);
      await theirs.getByLabel("Card number", { exact: true }).waitFor({ timeout: SLOW_MS });
      const ours = await mine.newPage();
      await ours.goto(address);
      await ours.getByRole("heading", { name: "This link is open in another browser" }).waitFor({ timeout: SLOW_MS });

      // The wait says the key; n asks for a new link, which is printed to open (--no-browser).
      await s.waitFor(`(press n for a new link, Ctrl-C stops)`, { after: "Open this address yourself:", timeoutMs: SLOW_MS });
      s.type("n");
      const renewed = await s.waitFor(
        /New link from (\S+) \(the old one no longer opens the page in another browser\):\n {2}(\S+)\nOpen this address yourself\./,
        {
          after: `✔ ${CONSENT_NO_BROWSER.slice(2)} Yes`,
          timeoutMs: SLOW_MS,
        },
      );
      const [, from, fresh] = /New link from (\S+) \([^)]*\):\n {2}(\S+)/.exec(renewed)!;
      assert.equal(from, host, "the new link comes from the same pages");
      assert.notEqual(fresh, address, "a different link");
      assert.equal(new URL(fresh!).origin, new URL(address).origin);

      // The old link now admits nobody new: the other browser, reloading, is told it was replaced.
      await theirs.reload();
      await theirs.getByRole("heading", { name: "This link was replaced by a newer one" }).waitFor({ timeout: SLOW_MS });

      // The new link, in the person's browser: the payment goes through and the demo goes on.
      await ours.goto(fresh!);
      await pay(ours);
      await s.waitFor(/Paid \$3,000 for booking ELC-[0-9A-Z]{6} with the Visa card ending 4242/, { timeoutMs: SLOW_MS });
      assert.equal(await theirs.getByLabel("Card number", { exact: true }).count(), 0, "the other browser has no form to pay with");
    } finally {
      await other.close();
      await mine.close();
      s.close();
    }
  });
});
