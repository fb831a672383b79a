// The install lines a person copies: every `npm install` that names an optional peer of mcp-elicit, on any
// page, is the line the code gives in its missing-package error (installLine, src/common/optional-peers.ts),
// and the packages it names are optional peers whose ranges take the versions the repository is tested on
// (its dev dependencies, as installed). A line the docs repeat by hand cannot drift from the error, and a
// major the tests run on cannot fall outside the peer range (npm then refuses the line with ERESOLVE).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import semver from "semver";
import { installLine, OPTIONAL_PEERS } from "../../src/common/optional-peers.js";
import { PAGES, read, root } from "../helpers/doc-pages.js";

const pkg = JSON.parse(read("package.json")) as {
  devDependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
};
const cli = JSON.parse(read("packages/cli/package.json")) as { dependencies: Record<string, string> };

const LINES = Object.fromEntries(Object.keys(OPTIONAL_PEERS).map((what) => [what, installLine(what as keyof typeof OPTIONAL_PEERS)]));
const PEERS = new Set(Object.keys(pkg.peerDependenciesMeta).filter((name) => pkg.peerDependenciesMeta[name]!.optional));

/** Each `npm install ...` command of a page's code spans (wrapped lines joined), with the page it is on. */
function installCommands(): { page: string; command: string }[] {
  return PAGES.flatMap((page) =>
    [...read(page).replace(/\s+/g, " ").matchAll(/`([^`]*)`/g)].flatMap(([, code]) =>
      [...code!.matchAll(/npm install((?: @?[a-z0-9][\w.-]*(?:\/[\w.-]+)?)+)/g)].map(([command]) => ({ page, command: command! })),
    ),
  );
}

test("the terminal renderer's line is the one in the README, connect-a-host and the dependencies note", () => {
  const terminal = LINES["mcp-elicit/terminal"]!;
  assert.equal(terminal, "npm install @inquirer/prompts @inquirer/core ora open");
  for (const page of ["README.md", "docs/host/connect-a-host.md", "docs/design/dependencies.md"])
    assert.ok(
      installCommands().some((c) => c.page === page && c.command === terminal),
      `${page} gives the terminal renderer's line: ${terminal}`,
    );
});

test("every install line that names an optional peer is a line the code gives", () => {
  const named = installCommands().filter(({ command }) => command.split(" ").some((word) => PEERS.has(word)));
  assert.ok(named.length >= 4, `only ${named.length} install lines found`);
  const lines = new Set(Object.values(LINES));
  for (const { page, command } of named) {
    // One-package lines of their own errors: the stores' (src/store/) and the browser opener's (src/common/open-url.ts).
    if (/^npm install (?:redis|better-sqlite3|open)$/.test(command)) continue;
    assert.ok(lines.has(command), `${page}: "${command}" is none of: ${[...lines].join(" | ")}`);
  }
});

test("each package the lines name is an optional peer whose range takes the version the tests run on", () => {
  for (const name of new Set(Object.values(LINES).flatMap((line) => line.split(" ").slice(2)))) {
    const range = pkg.peerDependencies[name];
    assert.ok(range && PEERS.has(name), `${name} is an optional peer of mcp-elicit`);
    const installed = (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    assert.ok(semver.satisfies(installed, range), `${name}@${installed} (installed) is in the peer range ${range}`);
    assert.ok(semver.subset(pkg.devDependencies[name]!, range), `${name}: the dev range ${pkg.devDependencies[name]} is inside the peer range ${range}`);
    assert.equal(cli.dependencies[name], range, `mcp-elicit-cli depends on ${name} at the peer range`);
  }
});
