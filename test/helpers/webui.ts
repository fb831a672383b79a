// For the webUI tests: the bundles webUI serves (built into dist/web/ when missing or older than their
// sources, as `npm run build` builds them), headless Chromium, a server whose tools ask, and raw HTTP
// requests with exactly the headers a test sets.
import { after, before } from "node:test";
import { existsSync, readdirSync, statSync } from "node:fs";
import { spawn } from "node:child_process";
import { request } from "node:http";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { McpServer } from "@modelcontextprotocol/server";
import type { Browser, Page } from "playwright-core";
import * as z from "zod";
import { buildWeb, WEB_ENTRIES } from "../../scripts/build-web.mjs";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { form, text } from "../../src/schema/builders.js";
import { killOnExit } from "./cleanup.js";
import { has } from "./needs.js";
import { launchChromium } from "./chromium.js";

const root = fileURLToPath(new URL("../..", import.meta.url));
const PAGE_ENTRY = { in: "src/ui/web/page/main.ts", out: "page" };

const newest = (dir: string): number =>
  Math.max(
    0,
    ...readdirSync(dir, { withFileTypes: true, recursive: true }).map((e) =>
      e.isFile() ? statSync(join(e.parentPath, e.name)).mtimeMs : 0,
    ),
  );

/**
 * dist/web/'s bundles (elements.js, each element's file, page.js), rebuilt only when a source under src/ is newer
 * (other tests may be reading them).
 */
export async function ensureBundles(): Promise<void> {
  const outputs = WEB_ENTRIES.map((e) => join(root, "dist/web", `${e.out}.js`));
  const built = Math.min(...outputs.map((f) => (existsSync(f) ? statSync(f).mtimeMs : 0)));
  if (built > newest(join(root, "src"))) return;
  const entries = WEB_ENTRIES.some((e) => e.out === "page") ? WEB_ENTRIES : [...WEB_ENTRIES, PAGE_ENTRY];
  await buildWeb({ entries });
}

/** Chromium for the file's tests: launched before them, closed after. */
export function browserForTests(): { browser: () => Browser } {
  let browser: Browser | undefined;
  before(async () => {
    // The file's groups are skipped without Chromium (needs("chromium")): nothing to set up.
    if (!has("chromium")) return;
    await ensureBundles();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
  });
  return { browser: () => browser! };
}

/**
 * A server named `name` with `ask`: it asks for a name (the message is `question`) and returns what it
 * got as text, e.g. "accept Ana" or "cancel".
 */
export function askingServer(name: string) {
  const kit = createElicitation();
  return () => {
    const server = new McpServer({ name, version: "1.0.0" });
    kit.registerTool(
      server,
      "ask",
      { description: "Asks for a name", inputSchema: z.object({ question: z.string() }) },
      async ({ question }, ctx) => {
        const answer = await ctx.elicit(question, form({ fullName: text({ title: "Your name", minLength: 2 }) }));
        return { content: [{ type: "text", text: answer.action === "accept" ? `accept ${answer.content.fullName}` : answer.action }] };
      },
    );
    return server;
  };
}

export interface RawResponse {
  status: number;
  body: string;
}

/** One HTTP request with exactly these headers (fetch would add or forbid some, e.g. Host and Origin). */
export function rawRequest(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string; firstChunkOnly?: boolean } = {},
): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const length = options.body === undefined ? {} : { "Content-Length": String(Buffer.byteLength(options.body)) };
    const req = request(url, { method: options.method ?? "GET", headers: { ...length, ...options.headers } }, (res) => {
      let body = "";
      res.setEncoding("utf8");
      res.on("data", (chunk: string) => {
        body += chunk;
        // A stream (SSE) does not end: the first state is enough.
        if (options.firstChunkOnly && /event: state\ndata: .*\n\n/.test(body)) {
          req.destroy();
          resolve({ status: res.statusCode ?? 0, body });
        }
      });
      res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on("error", (error) =>
      options.firstChunkOnly ? undefined : reject(new Error(`${options.method ?? "GET"} ${url}: ${error.message}`)),
    );
    req.end(options.body);
  });
}

/** The line `elicit --web` prints on stderr, with the page's address. */
export const ADDRESS_LINE = /^elicit: answer in your browser: (http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{43}\/)$/m;

export interface ElicitChild {
  stdout(): string;
  stderr(): string;
  /** Resolves with the first match of `pattern` on stdout or stderr (as they are when it appears). */
  waitFor(pattern: RegExp, stream?: "stdout" | "stderr"): Promise<RegExpExecArray>;
  exit: Promise<number | null>;
  kill(): void;
}

/** Runs the built `elicit` bin with `args` (stdin closed, no terminal), as the e2e tests of --web do. */
export function startElicit(bin: string, args: string[], env: Record<string, string | undefined> = {}): ElicitChild {
  // Killed with this process however it ends, so a failed or cut file leaves no elicit running.
  const child = killOnExit(
    spawn(process.execPath, [bin, ...args], {
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, ...env } as NodeJS.ProcessEnv,
    }),
  );
  const text = { stdout: "", stderr: "" };
  const waiters = new Set<() => void>();
  const changed = () => waiters.forEach((w) => w());
  child.stdout.on("data", (d: Buffer) => ((text.stdout += d.toString()), changed()));
  child.stderr.on("data", (d: Buffer) => ((text.stderr += d.toString()), changed()));
  const exit = new Promise<number | null>((resolve) => child.on("close", (code) => (changed(), resolve(code))));
  return {
    stdout: () => text.stdout,
    stderr: () => text.stderr,
    exit,
    kill: () => void child.kill("SIGKILL"),
    waitFor(pattern, stream) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stream ? text[stream] : text.stdout + "\n" + text.stderr);
          if (match) {
            waiters.delete(check);
            resolve(match);
          } else if (child.exitCode !== null) {
            waiters.delete(check);
            reject(new Error(`elicit exited (${child.exitCode}) before ${pattern}:\n${text.stdout}\n${text.stderr}`));
          }
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** A sign-in consent card in the page: consented to, and the sign-in done as demo/demo in the tab it opens; the tab is returned. */
export async function signInFromPage(page: Page): Promise<Page> {
  await page.getByLabel("I checked the address and want to open it").check();
  const popup = page.context().waitForEvent("page");
  await page.getByRole("button", { name: "Open link" }).click();
  const tab = await popup;
  await tab.getByLabel("Username").fill("demo");
  await tab.getByLabel("Password").fill("demo");
  await tab.getByRole("button", { name: "Sign in" }).click();
  await tab.getByRole("button", { name: "Allow" }).click();
  return tab;
}
