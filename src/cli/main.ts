#!/usr/bin/env node
// The `elicit` command. Each command's module is imported when that command runs: `elicit --help`
// or `elicit lint` does not load the terminal UI, the SDK, the servers or the model provider.
import { Command } from "commander";
import nodeModule, { createRequire } from "node:module";
import { DEFAULT_CONNECT_TIMEOUT_S, PRINT_CONFIG_HOSTS, SERVER_NAMES } from "./constants.js";
import { LATEST_REVISION, PROTOCOL_REVISIONS } from "../schema/types.js";

// V8's compiled code for what each command imports (the SDK, zod, ours) is kept on disk between runs, as
// npm and tsc do (Node's default folder under the temp folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off):
// a second `elicit call` over stdio with `elicit serve travel` took 2.5 s of CPU instead of 3.1 s.
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = new Command("elicit")
  .description(
    "MCP elicitation from the terminal: check form schemas, and answer servers' forms, URL and model requests, run the travel demo.",
  )
  .version(version)
  // Usage errors exit 2, like every other bad-input case of the CLI; help and version exit 0.
  .exitOverride((err) => process.exit(err.exitCode === 0 ? 0 : 2));

program
  .command("lint")
  .description("Check an elicitation requestedSchema (or elicitation/create params) against a protocol revision's rules.")
  .argument("<file>", "JSON file to check, or - for standard input")
  .option("--protocol <rev>", `protocol revision: ${PROTOCOL_REVISIONS.join(", ")}`, LATEST_REVISION)
  .option("--json", "print the findings as JSON")
  .addHelpText(
    "after",
    `
Exit codes: 0 no errors (warnings allowed), 1 errors found, 2 unreadable input or bad JSON.

Examples:
  elicit lint form.json
  elicit lint --protocol 2025-06-18 form.json
  echo '{"type":"object","properties":{"age":{"type":"integer","minimum":18}}}' | elicit lint -`,
  )
  .action(async (file: string, opts: { protocol: string; json?: boolean }) => {
    const { lint } = await import("./lint.js");
    const out = await lint(file, opts);
    process.stdout.write(out.stdout);
    process.stderr.write(out.stderr);
    process.exitCode = out.exitCode;
  });

program
  .command("serve")
  .description("Run a bundled MCP server, over stdio or Streamable HTTP, on every protocol revision (2025-06-18, 2025-11-25, 2026-07-28).")
  .argument("<name>", `server to run: ${SERVER_NAMES.join(", ")}`)
  .option(
    "--http [[host:]port]",
    "serve Streamable HTTP at http://HOST:PORT/mcp instead of stdio (host default 127.0.0.1; port 0, or no port, picks a free one)",
  )
  .option("--auth", "with --http: require sign-in (OAuth), through a local demo OpenID provider started with the server")
  .option(
    "--store <file>",
    "keep URL-mode flows, the credential vault, 2026-07-28 calls and bookings in this SQLite file, so a restart completes them (needs MCP_ELICIT_VAULT_KEY)",
  )
  .option(
    "--passport",
    "travel: book_trip asks for the passport's photo page (an upload page, URL mode) before booking an international trip",
  )
  .addHelpText(
    "after",
    `
Servers:
  conformance  every tool, resource and prompt of the official MCP conformance suite (@modelcontextprotocol/conformance)
  travel       the travel-booking demo: search_flights, find_best_flight (sampling), book_trip (elicitation), save_itinerary (roots),
               pay_for_booking and connect_frequent_flyer (URL mode: the server's payment page, SkyMiles sign-in)

The URL is printed to standard error; Ctrl-C (SIGINT) or SIGTERM stops the server. With --auth, so are
the local OpenID provider's address and its demo accounts; tokens must carry the scope mcp:tools.
The travel server's URL-mode pages are served under /elicit/ (on stdio: on a free 127.0.0.1 port), for
whoever uses this computer, or, with --auth, for the person signed in at the provider as the caller.

Examples:
  elicit serve conformance                         # stdio, for an MCP client that spawns it
  elicit serve conformance --http 3000             # http://127.0.0.1:3000/mcp
  elicit serve conformance --http 0.0.0.0:3000     # listen on every interface (no DNS-rebinding Host check)
  elicit serve travel --http 3000                  # the travel demo at http://127.0.0.1:3000/mcp
  elicit serve travel --http 3000 --auth           # the same, for signed-in users only (sign in as demo / demo)
  elicit serve travel --http 3000 --store trips.db # flows and bookings survive a restart (MCP_ELICIT_VAULT_KEY set)`,
  )
  .action(async (name: string, opts: { http?: string | boolean; auth?: boolean; store?: string; passport?: boolean }) => {
    const { serve } = await import("./serve.js");
    process.exitCode = await serve(name, opts);
  });

/** Options every command that talks to a server shares. */
function serverOptions(command: Command): Command {
  return command
    .option("--url <url>", "the server's Streamable HTTP endpoint, e.g. http://127.0.0.1:3000/mcp")
    .option("--modes <modes>", "elicitation modes to declare: form, url or form,url", "form,url")
    .option("--protocol <rev>", `protocol revision: auto, ${PROTOCOL_REVISIONS.join(", ")}`, "auto")
    .option(
      "--root <dir>",
      "a directory the server may work in, sent as a file:// root (repeatable)",
      (dir: string, all: string[]) => [...all, dir],
      [] as string[],
    )
    .option(
      "--connect-timeout <seconds>",
      `give up when the server has not answered the handshake after this long (default ${DEFAULT_CONNECT_TIMEOUT_S}, or ELICIT_CONNECT_TIMEOUT)`,
    )
    .option("--token <bearer>", "an access token to send as it is (or ELICIT_TOKEN); no sign-in, nothing stored")
    .option("--client-id <id>", "sign in as this pre-registered OAuth client instead of registering one")
    .option("--client-secret <secret>", "the pre-registered client's secret (or ELICIT_CLIENT_SECRET); never printed or stored")
    .option(
      "--issuer <url>",
      "the authorization server (its issuer URL) that --client-id's secret or key, --jwt-bearer's JWT or --id-jag-from's grant may go to; required with them",
    )
    .option(
      "--client-metadata-url <url>",
      "an https URL of this client's metadata document, used as client_id where the server supports it",
    )
    .option("--client-credentials", "sign in with no person: the client_credentials grant, as --client-id with its secret or --client-key")
    .option("--client-key <file>", "with --client-credentials: the client's private key (PEM or JWK) to sign with (private_key_jwt)")
    .option(
      "--jwt-bearer <file>",
      "sign in with no person: the workload's JWT in FILE (RFC 7523 JWT bearer grant), read again for each token",
    )
    .option(
      "--id-jag-from <file>",
      "sign in with no browser (enterprise-managed): exchange the identity token in FILE at its identity provider for an ID-JAG, as --client-id",
    )
    .option(
      "--dpop",
      "ask for DPoP-bound tokens (RFC 9449) wherever the authorization server offers them; the key is kept with the sign-in",
    )
    .option(
      "--scope <scopes>",
      "with --client-credentials, --jwt-bearer or --id-jag-from: the scopes to ask for (default: those the server names)",
    )
    .option("--no-browser", "print addresses to open (sign-in, links the server sends, the --web page) instead of opening a browser");
}

const SIGN_IN_HELP = `
Servers that require authorization (OAuth): elicit discovers the authorization server, registers
itself (or uses --client-id), asks before opening the sign-in page in your browser (BROWSER names the
command to open it with; --no-browser prints the address), waits for the redirect to
http://127.0.0.1:PORT/callback (ELICIT_SIGN_IN_TIMEOUT seconds, default 300), and keeps the sign-in
in $XDG_CONFIG_HOME/mcp-elicit/oauth/ (default ~/.config/mcp-elicit/oauth/), refreshing it when it
expires. elicit logout forgets it. Without a terminal, an answers entry matching "Sign in" consents.
With no person (CI, agents): --client-credentials --client-id ID with ELICIT_CLIENT_SECRET (or
--client-key FILE), or --jwt-bearer FILE, or --id-jag-from FILE (a person's identity token from the
enterprise's identity provider, exchanged there for an ID-JAG): no browser, no question; a token is
asked for on each run. Each of these, and --client-secret, needs --issuer URL: the one authorization
server the credentials may be sent to. An MCP server that names another one gets nothing, and elicit
says which server it named.`;

/** --web, for the commands that ask a person (serverOptions' --no-browser applies to its page too). */
function webOptions(command: Command): Command {
  return command.option("--web", "answer in a browser tab instead of the terminal: a local page on 127.0.0.1 behind a secret address");
}

const WEB_HELP = `
With --web, the questions (and, for connect, the tool menu and arguments) are answered in a page on
127.0.0.1 whose address, with its secret, is printed to standard error on a line of its own and opened
in your browser (unless --no-browser). The terminal keeps the progress and the results. A reload keeps
what is pending; once the page has been closed for 60 s, what is pending is cancelled.`;

const MODEL_ENV = `
Model for sampling requests (optional; without one you type the answer yourself):
  ELICIT_MODEL_BASE_URL  an OpenAI-compatible API, e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1
  ELICIT_MODEL           model name(s), comma-separated, first = default
  ELICIT_MODEL_API_KEY   the API key (OPENAI_BASE_URL, OPENAI_MODEL and OPENAI_API_KEY work too)`;

webOptions(
  serverOptions(
    program
      .command("call")
      .description(
        "Call one tool and print its result as JSON; questions from the server are answered from --answers (or at the terminal).",
      )
      .argument("<tool>", "the tool's name")
      .argument("[server...]", "after --: the command that starts a stdio server")
      .option("--args <json>", "the tool's arguments as a JSON object", "{}")
      .option("--answers <file>", "answers for the server's questions: a JSON or YAML list (- for standard input)"),
  ),
)
  .addHelpText(
    "after",
    `
Before calling, it lists the server's tools: a tool that is not there, or that the MCP SDK excluded
(an invalid x-mcp-header declaration), is not called, and --args are checked against the tool's
input schema (a $ref to another document is not fetched, and what it describes is left to the server;
a null for a parameter that is not required counts as not given, and is sent as it is).

${SIGN_IN_HELP}

Exit codes: 0 the tool succeeded, 1 the tool failed (isError, a JSON-RPC error, or a URL flow you declined),
2 usage error, bad answers file, no such tool, --args that do not fit its input schema, or the server
could not be reached (or did not answer within --connect-timeout).

Answers file: a list used in order; the first unused entry whose match (a regular expression on the
message) fits answers. Forms and URL requests take an action; sampling requests take sample:
  - match: "Confirm your Barcelona"
    action: accept
    content: { confirmBooking: true, seatPreference: window }
  - match: "contact"
    action: accept
    content: { fullName: Ana Garcia, email: ana@example.com, phone: "+34 600 000 000" }
  - match: "flight options"
    sample: { action: approve, text: "FL-1234" }   # text replaces (or, with no model, stands in for) the answer
  - action: decline                                 # no match: fits any message
An unmatched request is cancelled (sampling: denied) with a notice; an answer that fails the form's
rules is never sent (the errors go to stderr and the answer is cancel).
${WEB_HELP}
${MODEL_ENV}

Examples:
  elicit call search_flights --args '{"destination":"Barcelona","departDate":"2026-06-15","returnDate":"2026-06-22"}' -- elicit serve travel
  elicit call book_trip --args '{"destination":"Barcelona","departDate":"2026-06-15","returnDate":"2026-06-22"}' --answers answers.yaml --url http://127.0.0.1:3000/mcp`,
  )
  .action(async (tool: string, server: string[], opts) => {
    const { call } = await import("./call.js");
    process.exitCode = await call(tool, server, opts);
  });

serverOptions(
  program
    .command("tools")
    .description(
      "List the server's tools (every page) and print them as JSON, as the MCP SDK keeps them: tools it excludes (an invalid x-mcp-header declaration) are left out, with a warning.",
    )
    .argument("[server...]", "after --: the command that starts a stdio server"),
)
  .addHelpText(
    "after",
    `
Exit codes: 0 listed, 2 usage error or the server could not be reached.

Examples:
  elicit tools -- elicit serve travel
  elicit tools --url http://127.0.0.1:3000/mcp --protocol 2025-11-25`,
  )
  .action(async (server: string[], opts) => {
    const { tools } = await import("./call.js");
    process.exitCode = await tools(server, opts);
  });

webOptions(
  serverOptions(
    program
      .command("connect")
      .description(
        "Connect to an MCP server and use it interactively: list and call tools, answer its forms, URL requests and model requests, manage roots.",
      )
      .argument("[server...]", "after --: the command that starts a stdio server"),
  ),
)
  .addHelpText(
    "after",
    `
Every question the server asks shows which server asks and why. Forms are checked before they are
shown and answers before they are sent; URLs are analysed (look-alike hosts, punycode, IP literals)
and opened in your browser only after you say yes. Ctrl-C or Esc cancels a question; at the main
menu it quits.
${WEB_HELP}
${MODEL_ENV}

Examples:
  elicit connect -- elicit serve travel
  elicit connect --web -- elicit serve travel
  elicit connect --url http://127.0.0.1:3000/mcp --root ~/trips`,
  )
  .action(async (server: string[], opts) => {
    const { connect } = await import("./connect.js");
    process.exitCode = await connect(server, opts);
  });

serverOptions(
  program
    .command("tasks")
    .description(
      "Come back to tasks that tool calls became: get one's status, follow it to its result (answering its questions), cancel it, or list them.",
    )
    .argument("<action>", "get, result, cancel or list")
    .argument("[id]", "the task's id (elicit call prints it)")
    .argument("[server...]", "after --: the command that starts a stdio server")
    .option("--answers <file>", "for result: answers for the task's questions, as for elicit call (- for standard input)")
    .option("--json", "print the task (get, list) as the server sent it, as JSON"),
)
  .addHelpText(
    "after",
    `
A tool call the server turns into a task (the io.modelcontextprotocol/tasks extension on 2026-07-28,
or a 2025-11-25 tool that requires one) is followed by elicit call to its end; stopped before that, the
task goes on on the server, and these commands come back to it on the same server:
  get      one line: its status and message, and the questions it waits for
  result   follows it to its end, answering its questions, and prints its result as elicit call does
  cancel   asks the server to cancel it
  list     the tasks the server lists for you (2025-11-25 only: 2026-07-28 has no list)

Exit codes: 0 done, 1 the task's result is a tool error, 2 usage error, no such task, or the server
could not be reached.

Examples:
  elicit tasks get 786512e2-9e0d-44bd-8f29-789f320fe840 --url http://127.0.0.1:3000/mcp
  elicit tasks result 786512e2-9e0d-44bd-8f29-789f320fe840 --answers answers.yaml --url http://127.0.0.1:3000/mcp`,
  )
  .action(async (action: string, id: string | undefined, server: string[], opts) => {
    if (!["get", "result", "cancel", "list"].includes(action)) {
      process.stderr.write(`elicit: unknown tasks action "${action.slice(0, 40)}": get, result, cancel or list.\n`);
      process.exitCode = 2;
      return;
    }
    const { tasks } = await import("./tasks.js");
    // list takes no id: a first word after it is the server command's.
    const words = action === "list" && id !== undefined ? [id, ...server] : server;
    process.exitCode = await tasks(action as "get", action === "list" ? undefined : id, words, opts);
  });

serverOptions(
  program
    .command("gateway")
    .description(
      "Serve an MCP server to a host that lacks what it asks for: the host launches this (stdio) or connects to it (--http); questions the host cannot answer (forms, URL mode, sampling, roots) are asked in this gateway's page, and revisions are translated both ways.",
    )
    .argument("[server...]", "after --: the command that starts a stdio server")
    .option("--http [[host:]port]", "serve the host over Streamable HTTP at http://HOST:PORT/mcp instead of stdio (host default 127.0.0.1)")
    .option(
      "--public",
      "with --http on an address beyond this computer (e.g. 0.0.0.0:3000): serve there, every request needing the bearer secret printed at start",
    )
    .option(
      "--ui <who>",
      "who answers the server's questions: host (where it can; else the page), app (as host, and forms and links in the host as an MCP App where it shows apps but cannot be asked, e.g. Claude Desktop), web (the page) or terminal (needs --http)",
      "host",
    )
    .option("--policy <kind=who,...>", "who answers each kind of question (form, url, sampling, roots), e.g. url=web,sampling=host")
    .option("--log <file>", "append what was asked and answered to FILE, one JSON object a line (secrets redacted)")
    .option("--no-notify", "no desktop notification (notify-send, osascript) when a question waits on the page")
    .option("--print-config <host>", `print the snippet that makes a host launch this gateway: ${PRINT_CONFIG_HOSTS.join(", ")}`)
    .option("--name <name>", "with --print-config: the name the host lists the server under (default: from the command)")
    .option(
      "--npx",
      "with --print-config: start the gateway with npx from the npm registry (npx -y --package=mcp-elicit-cli elicit), not this elicit's absolute path (the default unless this elicit came from the registry)",
    ),
)
  .addHelpText(
    "after",
    `
Everything the host and the server say to each other passes through unchanged, except what the gateway
adds: it declares elicitation (form and URL), sampling and roots to the server; a question goes to the
host when the host declared that kind (and --ui/--policy let it), else to the gateway's own page, printed
on stderr and opened in the browser when the first question waits. A 2026-07-28 server's rounds are run
by the gateway and a 2025 host sees an ordinary call; a 2026-07-28 host in front of a 2025 server gets
rounds, held in the gateway. Tasks are followed to their end here. Signing in to the server is done here too.
${SIGN_IN_HELP}
${MODEL_ENV}

Examples:
  elicit gateway -- elicit serve travel
  elicit gateway --http 3000 --url https://mcp.example.com/mcp
  elicit gateway --policy url=web --log ~/elicit-gateway.jsonl -- npx -y @modelcontextprotocol/server-everything
  elicit gateway --print-config claude-desktop -- elicit serve travel`,
  )
  .action(async (server: string[], opts) => {
    if (opts.printConfig !== undefined) {
      const { printConfig } = await import("./gateway/print-config.js");
      process.exitCode = printConfig(opts.printConfig, server, opts);
      return;
    }
    const { gateway } = await import("./gateway/command.js");
    process.exitCode = await gateway(server, opts);
  });

program
  .command("logout")
  .description("Forget the saved sign-in (tokens and client registration) to one server, or to every server.")
  .argument("[url]", "the server's URL, as given to --url; without it, every saved sign-in is forgotten")
  .addHelpText(
    "after",
    `
Examples:
  elicit logout http://127.0.0.1:3000/mcp
  elicit logout`,
  )
  .action(async (url: string | undefined) => {
    const { logout } = await import("./oauth.js");
    process.exitCode = await logout(url);
  });

program
  .command("demo")
  .description(
    "The travel-booking demo: search Barcelona flights, let the model pick the best (you review the call), book the trip through the server's forms, pay on its secure payment page and connect a SkyMiles account (in the browser), save the itinerary into a root.",
  )
  .option("--protocol <rev>", `protocol revision: auto, ${PROTOCOL_REVISIONS.join(", ")}`, "auto")
  .option("--modes <modes>", "elicitation modes to declare: form, url or form,url", "form,url")
  .option(
    "--root <dir>",
    "where the itinerary may be saved (repeatable; default: a new temporary directory)",
    (dir: string, all: string[]) => [...all, dir],
    [] as string[],
  )
  .option("--answers <file>", "answer from a JSON or YAML file instead of the terminal (see elicit call --help)")
  .option("--web", "answer in a browser tab instead of the terminal: a local page on 127.0.0.1 behind a secret address")
  .option(
    "--no-browser",
    "never open a browser: print the addresses of the payment and SkyMiles pages (and, with --web, of the page) to open yourself",
  )
  .addHelpText(
    "after",
    `
The demo starts \`elicit serve travel\` itself (over stdio) and connects to it as \`elicit connect\` would.
Paying and SkyMiles open the server's pages in your browser (BROWSER names the command to open them with;
with --no-browser, or when no browser starts, the address is printed to open yourself). Pay with the test
card 4242 4242 4242 4242, any future expiry, any CVC; sign in at SkyMiles as demo / demo. With --answers, a headless Chromium completes
them when playwright-core and Chromium are installed, else those steps are declined, saying why.
${WEB_HELP}
${MODEL_ENV}

Examples:
  elicit demo
  elicit demo --web
  elicit demo --root ~/trips --protocol 2025-11-25`,
  )
  .action(async (opts) => {
    const { demo } = await import("./demo.js");
    process.exitCode = await demo(opts);
  });

await program.parseAsync();
