// writeInRoot keeps every byte inside the root: hostile names and symlinks are refused with a
// clear error, and the directory around the root is listed before and after to prove nothing
// landed outside.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { mkdtemp, mkdir, readdir, readFile, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { flightsFor, HOTELS } from "../../src/servers/travel/flights.js";
import type { Booking } from "../../src/servers/travel/bookings.js";
import {
  itineraryFileName,
  itineraryMarkdown,
  UnsafeWriteError,
  writeInRoot,
  type UnsafeWriteReason,
} from "../../src/servers/travel/itinerary.js";
import { removeOnExit } from "../helpers/cleanup.js";

/** Every path under `dir`, recursively, with file contents, so any stray write shows up. */
async function snapshot(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    const path = join(entry.parentPath, entry.name);
    out[path] = entry.isFile() ? await readFile(path, "utf8") : entry.isSymbolicLink() ? "<link>" : "<dir>";
  }
  return out;
}

function refused(reason: UnsafeWriteReason, pattern: RegExp) {
  return (error: unknown) => {
    assert.ok(error instanceof UnsafeWriteError, `expected UnsafeWriteError, got ${String(error)}`);
    assert.equal(error.reason, reason);
    assert.match(error.message, pattern);
    return true;
  };
}

describe("writeInRoot", () => {
  let base: string; // holds root/ and outside/, so a write outside the root is visible here
  let root: string;
  let outside: string;
  let rootUri: string;

  before(async () => {
    base = await mkdtemp(join(tmpdir(), "elicit-itinerary-"));
    removeOnExit(base); // also when the file is cut before its after hooks
    root = join(base, "root");
    outside = join(base, "outside");
    await mkdir(root);
    await mkdir(outside);
    await writeFile(join(outside, "secret.txt"), "do not touch");
    rootUri = pathToFileURL(root).href;
  });
  after(() => rm(base, { recursive: true, force: true }));

  /** Runs an attempt that must be refused, and checks the whole tree is unchanged. */
  async function assertRefusedUnchanged(attempt: () => Promise<unknown>, reason: UnsafeWriteReason, pattern: RegExp) {
    const beforeTree = await snapshot(base);
    const parentBefore = (await readdir(join(base, ".."))).filter((n) => n.startsWith("elicit-itinerary-") || n === "x.md");
    await assert.rejects(attempt(), refused(reason, pattern));
    assert.deepEqual(await snapshot(base), beforeTree, "nothing was written anywhere");
    const parentAfter = (await readdir(join(base, ".."))).filter((n) => n.startsWith("elicit-itinerary-") || n === "x.md");
    assert.deepEqual(parentAfter, parentBefore, "nothing was written next to the temporary directory");
  }

  test("writes a file inside the root, creating directories, and replaces it on a second write", async () => {
    const first = await writeInRoot(rootUri, "trips/2026/plan.md", "# one\n");
    assert.equal(first.path, join(root, "trips", "2026", "plan.md"));
    assert.equal(await readFile(first.path, "utf8"), "# one\n");
    const second = await writeInRoot(rootUri, "trips/2026/plan.md", "# two\n");
    assert.equal(second.bytes, 6);
    assert.equal(await readFile(first.path, "utf8"), "# two\n");
    assert.deepEqual(await readdir(join(root, "trips", "2026")), ["plan.md"], "no temporary file is left behind");
  });

  test('".." in the name is refused', async () => {
    await assertRefusedUnchanged(
      () => writeInRoot(rootUri, "../outside/x.md", "x"),
      "name-dot-segment",
      /contains "\.\.", which could leave the root/,
    );
    await assertRefusedUnchanged(() => writeInRoot(rootUri, "trips/../../x.md", "x"), "name-dot-segment", /contains "\.\."/);
  });

  test("an absolute path is refused", async () => {
    await assertRefusedUnchanged(
      () => writeInRoot(rootUri, join(outside, "x.md"), "x"),
      "name-absolute",
      /is absolute; it must be relative to the root/,
    );
    await assertRefusedUnchanged(() => writeInRoot(rootUri, "C:\\Users\\x.md", "x"), "name-absolute", /is absolute/);
  });

  test("a symlink in the root that points outside is refused", async () => {
    await symlink(outside, join(root, "escape"));
    try {
      await assertRefusedUnchanged(
        () => writeInRoot(rootUri, "escape/x.md", "x"),
        "outside-root",
        /"escape" is a symlink that leads outside the root \(to .*outside\)/,
      );
      await assertRefusedUnchanged(() => writeInRoot(rootUri, "escape/new-dir/x.md", "x"), "outside-root", /leads outside the root/);
    } finally {
      await rm(join(root, "escape"));
    }
  });

  test("a symlink in the root that stays inside it is followed", async () => {
    await mkdir(join(root, "real"));
    await symlink(join(root, "real"), join(root, "alias"));
    const written = await writeInRoot(rootUri, "alias/x.md", "inside");
    assert.equal(written.path, join(root, "real", "x.md"));
    assert.equal(await readFile(join(root, "real", "x.md"), "utf8"), "inside");
  });

  test("a target that is itself a symlink is refused, wherever it points", async () => {
    await symlink(join(outside, "secret.txt"), join(root, "itinerary.md"));
    try {
      await assertRefusedUnchanged(
        () => writeInRoot(rootUri, "itinerary.md", "overwrite?"),
        "target-symlink",
        /"itinerary\.md" is a symlink in the root; refusing to write through it/,
      );
      assert.equal(await readFile(join(outside, "secret.txt"), "utf8"), "do not touch");
    } finally {
      await rm(join(root, "itinerary.md"));
    }
  });

  test("a root that is itself a symlink is resolved, and writes stay in its target", async () => {
    const linkRoot = join(base, "link-root");
    await symlink(root, linkRoot);
    const written = await writeInRoot(pathToFileURL(linkRoot).href, "via-link.md", "ok");
    assert.equal(written.path, join(root, "via-link.md"));
  });

  test("roots that are not file:// URIs are refused", async () => {
    await assertRefusedUnchanged(
      () => writeInRoot("https://example.com/trips", "x.md", "x"),
      "root-not-file-uri",
      /is a https: URI; only file:\/\/ roots name a directory/,
    );
    await assertRefusedUnchanged(
      () => writeInRoot("not a uri", "x.md", "x"),
      "root-not-file-uri",
      /is not a URI; roots must be file:\/\/ URIs/,
    );
    await assertRefusedUnchanged(
      () => writeInRoot("file://fileserver/share", "x.md", "x"),
      "root-not-file-uri",
      /is not a local file:\/\/ URI/,
    );
  });

  test("a root that does not exist, and names that are empty or odd, are refused", async () => {
    await assertRefusedUnchanged(
      () => writeInRoot(pathToFileURL(join(base, "missing")).href, "x.md", "x"),
      "root-unusable",
      /missing cannot be written to: does not exist/,
    );
    await assertRefusedUnchanged(() => writeInRoot(rootUri, "", "x"), "name-invalid", /empty/);
    await assertRefusedUnchanged(() => writeInRoot(rootUri, "a//b.md", "x"), "name-invalid", /empty or "\." segment/);
    await assertRefusedUnchanged(() => writeInRoot(rootUri, "a\\..\\b.md", "x"), "name-invalid", /backslash/);
  });
});

describe("itineraryMarkdown", () => {
  test("lists the flights, hotel, traveler and total, and escapes traveler text", () => {
    const flight = flightsFor("BCN", "2026-06-15", "2026-06-22").find((f) => f.id === "BCN-11")!;
    const booking: Booking = {
      reference: "ELC-7QK2MX",
      createdAt: "2026-05-01T10:00:00.000Z",
      city: "Barcelona",
      departDate: "2026-06-15",
      returnDate: "2026-06-22",
      nights: 7,
      flight,
      hotel: HOTELS.BCN!,
      seatPreference: "window",
      roomType: "sea view",
      travelInsurance: true,
      traveler: { fullName: "Ana [click](http://evil)", email: "ana@example.com", phone: "+34 600 000 000" },
      price: { flightsUsd: 1180, hotelUsd: 1820, insuranceUsd: 150, totalUsd: 3150 },
    };
    const text = itineraryMarkdown(booking);
    assert.equal(itineraryFileName(booking), "itinerary-ELC-7QK2MX.md");
    assert.match(text, /^# Barcelona trip, June 15-22 — booking ELC-7QK2MX$/m);
    assert.match(text, /Total: \$3,150 \(flights \$1,180 \+ hotel \$1,820 \+ travel insurance \$150\)/);
    assert.match(text, /\| BA112 \| JFK \| 2026-06-15 08:25-04:00 \| LHR \|/);
    assert.match(text, /## Hotel: Hotel Mar Bella Beachfront\n\n- beachfront hotel/);
    assert.match(text, /Room: sea view/);
    assert.match(text, /Ana \\\[click\\\]\(http:\/\/evil\)/, "traveler text cannot become a Markdown link");
  });
});
