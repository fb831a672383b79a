// Signing in with --web: the sign-in consent is a link card in the page (the authorization server's
// address analysed), the page opens the sign-in in a new tab itself, and elicit opens nothing else.
// Headless Chromium does both: the consent in the page, the sign-in as demo/demo in the tab.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { startServer, type RunningServer } from "../../src/cli/serve.js";
import { BIN } from "../helpers/cli.js";
import { scratchFiles } from "../helpers/files.js";
import { NO_MODEL_ENV } from "../helpers/pty.js";
import { ADDRESS_LINE, browserForTests, signInFromPage, startElicit } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";

const { dir } = scratchFiles("elicit-oauth-web-");
const { browser } = browserForTests();
const SLOW = { timeout: 60_000 };
const TRIP = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });

let served: RunningServer;
before(async () => (served = await startServer("travel", { http: "0", auth: true })));
after(() => served?.close());

describe("elicit call --web against a server that requires sign-in", { skip: needs("chromium") }, () => {
  test("consent in the page, the sign-in in the tab it opens, then the call", SLOW, async () => {
    const elicit = startElicit(BIN, ["call", "search_flights", "--args", TRIP, "--url", served.url!.href, "--web", "--no-browser"], {
      ...NO_MODEL_ENV,
      XDG_CONFIG_HOME: dir,
      BROWSER: undefined,
    });
    const page = await browser().newPage();
    try {
      await page.goto((await elicit.waitFor(ADDRESS_LINE, "stderr"))[1]!);
      await page.getByText(/Sign in to 127\.0\.0\.1:\d+: it requires authorization/).waitFor(SLOW);
      // The sign-in address, shown in full before anyone goes there.
      await page.getByText(`${served.signIn!.issuer}/auth?`).first().waitFor();
      const tab = await signInFromPage(page);
      await tab.getByText("You are signed in").waitFor(SLOW);
      assert.equal(await elicit.exit, 0, elicit.stderr());
      assert.ok(Array.isArray(JSON.parse(elicit.stdout()).structuredContent.flights));
      assert.doesNotMatch(
        elicit.stderr(),
        /open this address in your browser/,
        "the page opened it; elicit did not print or open it again",
      );
    } finally {
      elicit.kill();
      await page.close();
    }
  });
});
