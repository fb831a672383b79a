// `elicit connect` in a real pseudo-terminal: the built bin (npm test builds first) against `elicit
// serve travel` over stdio. Pick a tool from the menu, fill its arguments through the form built from
// its input schema, read the result; add a root; quit from the menu, or with Ctrl-C.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { basename } from "node:path";
import { pathToFileURL } from "node:url";
import { BIN } from "../helpers/cli.js";
import { KEY, NO_MODEL_ENV, SLOW_MS, startProgram, tempDirs, type ProgramSession } from "../helpers/pty.js";

const tempDir = tempDirs("elicit-connect-pty-");
const NO_MODEL = NO_MODEL_ENV;
const SLOW = SLOW_MS;

function startConnect(root: string): ProgramSession {
  assert.ok(existsSync(BIN), `${BIN} is missing: run npm run build first`);
  return startProgram(process.execPath, [BIN, "connect", "--root", root, "--", process.execPath, BIN, "serve", "travel"], { env: NO_MODEL, name: "connect" });
}

const asking = (label: string) => new RegExp(`^\\? ${label.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?: |$)`, "m");

describe("elicit connect in a terminal", () => {
  test("call search_flights through its arguments form, add a root, quit from the menu", async () => {
    const root = tempDir();
    const second = tempDir();
    const s = startConnect(root);
    try {
      const menu = await s.waitFor("? What next?", { timeoutMs: SLOW });
      assert.match(menu, /^Connected to mcp-elicit-travel 1\.0\.0 \(protocol [0-9-]+\)\.$/m);
      assert.match(menu, /No model is configured: you will type the answers to sampling requests yourself/);
      assert.match(
        menu,
        new RegExp(`❯ Call search_flights\\n {2}Call find_best_flight\\n {2}Call book_trip\\n {2}Call save_itinerary\\n {2}Add a root directory\\n {2}Remove root ${basename(root)}\\n {2}Quit\\n`),
      );
      assert.match(menu, /Round-trip fares from New York for a destination and dates/, "the highlighted tool's description");
      s.press(KEY.enter); // Call search_flights

      const form = await s.waitFor("? Answer this form?", { after: "✔ What next? Call search_flights" });
      assert.match(form, /^Arguments for search_flights \(a tool of mcp-elicit-travel 1\.0\.0\)\n {2}Round-trip fares from New York/m);
      assert.doesNotMatch(form, /Form from|Decline/, "the client's own form: not the server's, nobody to decline to");
      assert.match(form, /❯ Fill it in \(3 fields\)\n {2}Cancel \(do not call search_flights\)/);
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Destination *", { after: "✔ Answer this form?" }), /City or airport code: Barcelona \(BCN\), Lisbon \(LIS\)/);
      s.type("Barcelona");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Depart date *", { after: "✔ Destination * Barcelona" }), /Outbound date, YYYY-MM-DD/);
      s.type("2026-06-15");
      s.press(KEY.enter);
      assert.match(await s.waitFor("? Return date *", { after: "✔ Depart date * 2026-06-15" }), /Return date, YYYY-MM-DD/);
      s.type("2026-06-22");
      s.press(KEY.enter);
      const review = await s.waitFor("? Send these answers?", { after: "Review your answers" });
      assert.match(review, /Destination \* +Barcelona\n {2}Depart date \* +2026-06-15\n {2}Return date \* +2026-06-22\n/);
      s.press(KEY.enter); // Submit

      const result = await s.waitFor("? What next?", { after: "Calling search_flights on mcp-elicit-travel 1.0.0…", timeoutMs: SLOW });
      assert.match(result, /^44 round-trip fares from New York to Barcelona \(BCN\), June 15-22, per traveler:\nBCN-01: Delta, economy, \$1,240 round trip/m);
      assert.match(result, /^BCN-44: KLM, economy, \$950 round trip/m);
      assert.match(result, /^Hotel for the stay: Hotel Mar Bella Beachfront \(beachfront hotel\), 7 nights at \$260\/night\.$/m);
      assert.doesNotMatch(result, /The tool reported an error/);

      // A second root, then it is listed.
      s.press(KEY.down, KEY.down, KEY.down, KEY.down);
      await s.waitFor(new RegExp(`❯ Add a root directory[\\s\\S]*Roots now: ${basename(root)}$`, "m"), { after: "Hotel for the stay" });
      s.press(KEY.enter);
      await s.waitFor(asking("Directory to share with the server:"), { after: "✔ What next? Add a root directory" });
      s.press(KEY.enter);
      await s.waitFor("Type a directory path", { after: "? Directory to share" });
      s.type(second);
      s.press(KEY.enter);
      const added = await s.waitFor("? What next?", { after: `Added root ${pathToFileURL(second).href}` });
      assert.match(added, new RegExp(`Remove root ${basename(root)}\\n {2}Remove root ${basename(second)}\\n {2}Quit`));
      s.press(KEY.down, KEY.down, KEY.down, KEY.down);
      await s.waitFor(`Roots now: ${basename(root)}, ${basename(second)}`, { after: `Added root` });

      s.press(KEY.down, KEY.down, KEY.down); // past both roots to Quit
      await s.waitFor(/❯ Quit/, { after: "Added root" });
      s.press(KEY.enter);
      assert.equal(await s.exitCode(SLOW), 0);
      assert.match(s.screen(), /✔ What next\? Quit$/);
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });

  test("Ctrl-C at the menu quits with exit 0", async () => {
    const s = startConnect(tempDir());
    try {
      await s.waitFor("? What next?", { timeoutMs: SLOW });
      s.press(KEY.ctrlC);
      assert.equal(await s.exitCode(SLOW), 0);
      assert.doesNotMatch(s.screen(), /elicit: /, "no error");
      assert.ok(s.cursorVisible(), "the cursor is visible again");
    } finally {
      s.close();
    }
  });
});
