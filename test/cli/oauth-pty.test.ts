// Signing in at a terminal: `elicit call --url` in a real pseudo-terminal against the travel server
// behind the local OpenID provider (in process). The consent question shows the sign-in address
// analysed, defaults to No, and the browser (BROWSER: a stand-in that signs in as demo) starts only
// after a yes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { startServer, type RunningServer } from "../../src/cli/serve.js";
import { CLI_TEST, BIN } from "../helpers/cli.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram, tempDirs } from "../helpers/pty.js";

const tempDir = tempDirs("elicit-oauth-pty-");
const STAND_IN = fileURLToPath(new URL("../helpers/sign-in-browser.ts", import.meta.url));
const TRIP = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });

let served: RunningServer;
before(async () => (served = await startServer("travel", { http: "0", auth: true })));
after(() => served.close());

function startCall() {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  return startProgram(process.execPath, [BIN, "call", "search_flights", "--args", TRIP, "--url", served.url!.href], {
    env: {
      ...NO_MODEL_ENV,
      XDG_CONFIG_HOME: tempDir(),
      BROWSER: `${process.execPath} --import tsx ${STAND_IN}`,
      SIGN_IN_BROWSER: "user:demo",
      ELICIT_SIGN_IN_TIMEOUT: "30",
    },
    name: "call",
  });
}

describe("elicit call --url at a terminal, against a server that requires sign-in", () => {
  test("the consent shows the provider's address; yes opens the browser, the sign-in comes back, the call goes on", CLI_TEST, async () => {
    const s = startCall();
    try {
      const screen = await s.waitFor("? Open this link in your browser?", { timeoutMs: SLOW_MS });
      const issuer = new URL(served.signIn!.issuer);
      assert.match(screen, /Link from 127\.0\.0\.1:\d+/);
      assert.match(screen, /Sign in to 127\.0\.0\.1:\d+: it requires authorization\. Its sign-in page is at 127\.0\.0\.1/);
      assert.match(screen, new RegExp(`Address: http://127\\.0\\.0\\.1:${issuer.port}/auth\\?`));
      assert.match(screen, new RegExp(`Host: +127\\.0\\.0\\.1:${issuer.port}`));
      assert.match(screen, /Warning: .*127\.0\.0\.1/);
      s.type("y");
      s.press(KEY.enter);
      await s.waitFor(/Opened in your browser: http:\/\/127\.0\.0\.1:\d+\/auth\?/, { timeoutMs: SLOW_MS });
      assert.equal(await s.exitCode(SLOW_MS), 0);
      assert.match(s.screen(), /"flightNumber": "[A-Z0-9]+"/, "the result, as JSON");
    } finally {
      s.close();
    }
  });

  test("no (the default) opens nothing and stops: exit 2, saying so", CLI_TEST, async () => {
    const s = startCall();
    try {
      await s.waitFor("? Open this link in your browser?", { timeoutMs: SLOW_MS });
      s.press(KEY.enter);
      assert.equal(await s.exitCode(SLOW_MS), 2);
      assert.match(s.screen(), /Declined: the link was not opened\./);
      assert.match(
        s.screen(),
        /elicit: could not sign in to http:\/\/127\.0\.0\.1:\d+\/mcp: you did not consent to sign in at 127\.0\.0\.1, so 127\.0\.0\.1:\d+ was not called\./,
      );
    } finally {
      s.close();
    }
  });
});
