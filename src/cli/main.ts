#!/usr/bin/env node
// The `elicit` command.
import { Command } from "commander";
import { createRequire } from "node:module";
import { lint } from "./lint.js";
import { serve, SERVER_NAMES } from "./serve.js";
import { LATEST_REVISION, PROTOCOL_REVISIONS } from "../schema/types.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = new Command("elicit")
  .description("MCP elicitation from the terminal: check form schemas, and (soon) answer servers' forms and URL requests.")
  .version(version)
  // Usage errors exit 2, like every other bad-input case of the CLI; help and version exit 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program
  .command("lint")
  .description("Check an elicitation requestedSchema (or elicitation/create params) against a protocol revision's rules.")
  .argument("<file>", "JSON file to check, or - for standard input")
  .option("--protocol <rev>", `protocol revision: ${PROTOCOL_REVISIONS.join(", ")}`, LATEST_REVISION)
  .option("--json", "print the findings as JSON")
  .addHelpText("after", `
Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unreadable input or bad JSON.

Examples:
  elicit lint form.json
  elicit lint --protocol 2025-06-18 form.json
  echo '{"type":"object","properties":{"age":{"type":"integer","minimum":18}}}' | elicit lint -`)
  .action(async (file: string, opts: { protocol: string; json?: boolean }) => {
    const out = await lint(file, opts);
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    process.exitCode = out.exitCode;
  });

program
  .command("serve")
  .description("Run a bundled MCP server, over stdio or Streamable HTTP, on every protocol revision (2025-06-18, 2025-11-25, 2026-07-28).")
  .argument("<name>", `server to run: ${SERVER_NAMES.join(", ")}`)
  .option("--http <[host:]port>", "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (host default 127.0.0.1; port 0 picks a free one)")
  .addHelpText("after", `
Servers:
  conformance  every tool, resource and prompt of the official MCP conformance suite (@modelcontextprotocol/conformance)

The URL is printed to standard error; Ctrl-C (SIGINT) or SIGTERM stops the server.

Examples:
  elicit serve conformance                         # stdio, for an MCP client that spawns it
  elicit serve conformance --http 3000             # http://127.0.0.1:3000/mcp
  elicit serve conformance --http 0.0.0.0:3000     # listen on every interface (no DNS-rebinding Host check)`)
  .action(async (name: string, opts: { http?: string }) => {
    process.exitCode = await serve(name, opts);
  });

program
  .command("demo")
  .description("The travel-booking demo (not built yet: see the README).")
  .action(() => {
    process.stderr.write("elicit demo: the travel-booking demo is not built yet; it arrives with the client and server issues.\n");
    process.exitCode = 2;
  });

await program.parseAsync();
