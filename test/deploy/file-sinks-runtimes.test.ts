// directorySink and checkFileType under Deno and Bun (their binaries from the devDependencies): a server
// on either runtime stores uploads the same way as on Node. The fixture (test/deploy/fixtures/file-sinks/
// runtime-check.ts) stores 5 MiB and reads it back, refuses 6 MiB against 5 MiB and a body that fails,
// and sniffs a PNG named .pdf; this file checks its report against Node's own hash of the same bytes.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { removeOnExit } from "../helpers/cleanup.js";
import { needs, packagedPath } from "../helpers/needs.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const FIXTURE = "test/deploy/fixtures/file-sinks/runtime-check.ts";
const ARGS = {
  deno: ["run", "--sloppy-imports", "--allow-read", "--allow-write", "--allow-env", "--allow-sys", FIXTURE],
  bun: ["run", FIXTURE],
};
const MB = 1024 * 1024;
const bytes = new Uint8Array(5 * MB).map((_, i) => (i * 31 + (i >> 12)) & 255);
const sha256 = createHash("sha256").update(bytes).digest("hex");

for (const runtime of ["deno", "bun"] as const) {
  describe(`directorySink and checkFileType on ${runtime}`, { skip: needs(runtime) }, () => {
    test(
      "5 MiB stored with Node's SHA-256 and read back; over the limit and a failed body leave nothing; a PNG named .pdf refused",
      { timeout: 120_000 },
      async () => {
        const dir = mkdtempSync(join(tmpdir(), `file-sinks-${runtime}-`));
        const forget = removeOnExit(dir);
        try {
          const { stdout } = await promisify(execFile)(packagedPath(runtime), ARGS[runtime], {
            cwd: root,
            env: { ...process.env, FILE_SINKS_DIR: dir, NO_COLOR: "1", DENO_NO_UPDATE_CHECK: "1" },
            timeout: 100_000,
          });
          const seen = JSON.parse(stdout.trim().split("\n").at(-1)!) as Record<string, unknown>;
          assert.deepEqual(seen, {
            size: 5 * MB,
            sha256,
            readBytes: 5 * MB,
            readSha256: sha256,
            tooLarge: "The file is larger than the limit of 5 MiB.",
            failed: "Error: connection reset",
            files: ["five.upload"],
            sniff: { ok: false, problem: "The file's content is PNG (image/png), but its name ends in .pdf." },
          });
        } finally {
          rmSync(dir, { recursive: true, force: true });
          forget();
        }
      },
    );
  });
}
