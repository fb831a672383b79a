// The pages themselves: the README is a front page that starts with the two commands for a fresh
// machine and links every page; links and anchors resolve; the reference facts that are checked
// against the code (rule codes, entry points, the answers file) hold.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { promisify } from "node:util";
import { SCHEMA_RULES } from "../../src/schema/index.js";
import { BIN } from "../helpers/cli.js";
import { filesUnder, PAGES, read, root } from "../helpers/doc-pages.js";

const readme = read("README.md");

test("the README starts with the two commands for a fresh machine, unchanged", () => {
  const first = /```sh\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.equal(first, "npm ci && npx elicit demo    # the travel-booking demo, in your terminal\nnpm ci && npm test           # the whole test suite\n");
});

test("the README is a front page: under 150 lines, linking every docs page, LICENSE and CHANGELOG.md", () => {
  const lines = readme.split("\n").length;
  assert.ok(lines < 150, `README.md has ${lines} lines`);
  for (const page of [...PAGES.filter((p) => p !== "README.md"), "LICENSE", "CHANGELOG.md"]) assert.ok(readme.includes(`](${page})`), `README.md does not link ${page}`);
  assert.ok(/MCP_SPEC_DIR[\s\S]{0,200}\]\(docs\/conformance\.md#[a-z_-]+\)/.test(readme), "the MCP_SPEC_DIR note links the conformance page");
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  const text = markdown.replace(/```[\s\S]*?```/g, "");
  for (const [, heading] of text.matchAll(/^#{1,6} (.*)$/gm)) {
    const base = heading!.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

test("every relative link and anchor on every page resolves", () => {
  for (const page of PAGES) {
    const text = read(page).replace(/```[\s\S]*?```/g, "");
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path, anchor] = target!.split("#");
      const file = path ? normalize(join(dirname(page), path)) : page;
      assert.ok(existsSync(join(root, file)), `${page}: ${target} does not exist`);
      if (anchor) assert.ok(anchorsOf(read(file)).has(anchor), `${page}: no heading #${anchor} in ${file}`);
    }
  }
});

test("docs/reference/schema.md documents every checkSchema rule code with its severity", () => {
  const schemaPage = read("docs/reference/schema.md");
  for (const [code, rule] of Object.entries(SCHEMA_RULES)) {
    assert.match(schemaPage, new RegExp("\\| `" + code + "` \\| " + rule.severity + " \\|"), code);
  }
});

test("every mcp-elicit entry point a page names exists, and each is documented", () => {
  const exported = Object.keys((JSON.parse(read("package.json")) as { exports: Record<string, unknown> }).exports)
    .filter((e) => e !== "./package.json")
    .map((e) => `mcp-elicit/${e.slice(2)}`);
  const all = PAGES.map(read).join("\n");
  for (const [named] of all.matchAll(/mcp-elicit\/[a-z]+/g)) assert.ok(exported.includes(named), `${named} is not an entry point`);
  for (const entry of exported) assert.ok(all.includes(entry), `${entry} is not documented`);
  assert.doesNotMatch(all, /AnswerOf/, "the one answer type name is Infer");
});

test("every design note is linked from the design overview", () => {
  const overview = read("docs/design/overview.md");
  for (const note of filesUnder("docs/design", (n) => n.endsWith(".md")).filter((p) => p !== "docs/design/overview.md")) {
    assert.ok(overview.includes(`](${note.slice("docs/design/".length)})`), `docs/design/overview.md does not link ${note}`);
  }
});

test("the README's `elicit lint` line runs as written, from the repository's root, on a file that is there", async () => {
  const line = readme.split("\n").find((l) => l.startsWith("npx elicit lint "));
  assert.ok(line, "README.md has an npx elicit lint line");
  const args = line.replace(/#.*$/, "").trim().split(/\s+/).slice(2);
  for (const file of args.slice(1).filter((a) => !a.startsWith("-"))) assert.ok(existsSync(join(root, file)), `README.md lints ${file}, which does not exist`);
  // The example form is wrong on purpose (the lint page walks through its findings): exit 1, with them.
  const ran = await promisify(execFile)(process.execPath, [BIN, ...args], { cwd: root }).then(
    (r) => ({ ...r, code: 0 }),
    (e: { stdout: string; stderr: string; code: number }) => e,
  );
  assert.equal(ran.code, 1, ran.stderr);
  assert.match(ran.stdout, /^\/properties\/address\/type {2}error {2}nested-object /m);
  assert.match(ran.stdout, /^2 errors, 1 warning \(protocol 2026-07-28\)$/m);
});

test("the answers file examples/answers.yaml books the trip: its match fits the server's message whatever the case", async () => {
  const args = JSON.stringify({ destination: "Barcelona", departDate: "2026-06-15", returnDate: "2026-06-22" });
  const { stdout, stderr } = await promisify(execFile)(process.execPath, [BIN, "call", "book_trip", "--args", args, "--answers", "examples/answers.yaml", "--", process.execPath, BIN, "serve", "travel"], { cwd: root });
  const result = JSON.parse(stdout);
  assert.notEqual(result.isError, true, stdout);
  assert.match(result.content[0].text, /^Booked! Reference ELC-[0-9A-Z]{6}: .*seat: window, room: sea view.*Total to pay \$3,000 \(nothing is charged until pay_for_booking\)\./s);
  assert.match(stderr, /elicit: answers entry \[0\] \(match "Confirm your Barcelona"\) answered "Please confirm your Barcelona[^"]*": accept\./);
  assert.match(stderr, /elicit: answers entry \[1\] \(match "contact"\) answered "[^"]*": accept\./);
});
