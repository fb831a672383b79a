// webUI in real headless Chromium, with real SDK clients and servers (2025-11-25, in memory): the
// queue across two servers, a request the server withdraws, a reload in the middle of a form, the
// grace period after the page closes, close(), and the guards (secret, Host, Origin, answers checked
// again on the server) with nothing delivered when they refuse.
import { after, describe, test } from "node:test";
import { readFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import type { CallToolResult } from "@modelcontextprotocol/client";
import type { Page } from "playwright-core";
import { attachElicitation, type ElicitationHandle } from "../../src/client/attach.js";
import { webUI, type WebUI, type WebUIOptions } from "../../src/web/index.js";
import { waitFor } from "../helpers/deferred.js";
import { clientFor, connect, type Connection } from "../helpers/mcp.js";
import { askingServer, browserForTests, rawRequest } from "../helpers/webui.js";
import { needs } from "../helpers/needs.js";

const { browser } = browserForTests();

interface Session {
  ui: WebUI;
  logs: string[];
  /** Calls `ask` on the n-th server. */
  ask(n: number, question: string, signal?: AbortSignal): Promise<string>;
  close(): Promise<void>;
}

/** One webUI, and one SDK client per server name, each with elicitation attached to that UI. */
async function session(names: string[], options: WebUIOptions = {}): Promise<Session> {
  const logs: string[] = [];
  const ui = await webUI({ open: false, log: (line) => logs.push(line), ...options });
  const peers: { handle: ElicitationHandle; connection: Connection }[] = [];
  for (const name of names) {
    const client = clientFor("2025-11-25", {});
    const handle = attachElicitation(client, { ui });
    peers.push({ handle, connection: await connect(client, askingServer(name), "2025-11-25", "memory") });
  }
  return {
    ui,
    logs,
    async ask(n, question, signal) {
      const result = (await peers[n]!.handle.callTool(
        { name: "ask", arguments: { question } },
        signal ? { signal } : {},
      )) as CallToolResult;
      return (result.content[0] as { text: string }).text;
    },
    async close() {
      for (const peer of peers) await peer.connection.close();
      await ui.close();
    },
  };
}

async function openPage(ui: WebUI): Promise<{ page: Page; errors: string[] }> {
  const page = await browser().newPage();
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(ui.pageUrl);
  return { page, errors };
}

/** Fills the asking server's form and sends it, as a person would. */
async function answerName(page: Page, name: string): Promise<void> {
  await page.getByLabel("Your name").fill(name);
  await page.getByRole("button", { name: "Submit" }).click();
  await page.getByRole("button", { name: "Send" }).click();
}

/** The id of the first pending request, read from the state stream as the page reads it. */
async function firstRequestId(ui: WebUI): Promise<string> {
  const { body } = await rawRequest(ui.pageUrl + "events", { firstChunkOnly: true });
  const data = /event: state\ndata: (.*)\n/.exec(body)![1]!;
  return (JSON.parse(data) as { requests: { id: string }[] }).requests[0]!.id;
}

describe("webUI in Chromium", { skip: needs("chromium") }, () => {
  test("two requests from two servers queue: the first is shown, the other listed by server, each answered in turn", async () => {
    const s = await session(["alpha", "beta"]);
    try {
      const { page, errors } = await openPage(s.ui);
      await page.getByText("Connected to the host.").waitFor();
      const first = s.ask(0, "Who is travelling?");
      await page.getByRole("heading", { name: "Form from alpha 1.0.0" }).waitFor();
      const second = s.ask(1, "Who pays?");
      await page.getByText("1 more waiting (beta)").waitFor();
      assert.equal(await page.getByText("Request 1 of 2, from alpha 1.0.0").count(), 1);
      assert.equal(await page.getByRole("listitem").filter({ hasText: "Form from beta" }).count(), 1);

      await answerName(page, "Ana");
      assert.equal(await first, "accept Ana");
      await page.getByRole("heading", { name: "Form from beta 1.0.0" }).waitFor();
      await page.getByText("Who pays?").waitFor();
      assert.equal(await page.locator("#queue").isHidden(), true);
      await answerName(page, "Bo");
      assert.equal(await second, "accept Bo");
      await page.getByText("Nothing to answer right now.").waitFor();
      assert.equal(s.ui.pending, 0);
      assert.deepEqual(errors, []);
    } finally {
      await s.close();
    }
  });

  test("the page, with a form on screen and one more waiting, has no axe-core violations and no CSP violation", async () => {
    const s = await session(["alpha", "beta"]);
    try {
      const { page, errors } = await openPage(s.ui);
      const first = s.ask(0, "Who is travelling?");
      await page.getByRole("heading", { name: "Form from alpha 1.0.0" }).waitFor();
      const second = s.ask(1, "Who pays?");
      await page.getByText("1 more waiting (beta)").waitFor();
      // page.evaluate runs outside the page's CSP, which (rightly) refuses any script not served by the host.
      await page.evaluate(readFileSync(fileURLToPath(import.meta.resolve("axe-core/axe.min.js")), "utf8"));
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; nodes: unknown[] }[] }> } }).axe;
        return (await axe.run()).violations.map((v) => `${v.id} (${v.nodes.length})`);
      });
      assert.deepEqual(violations, []);
      assert.deepEqual(errors, [], "no CSP violation or other error on the console");
      await answerName(page, "Ana");
      await answerName(page, "Bo");
      assert.deepEqual([await first, await second], ["accept Ana", "accept Bo"]);
    } finally {
      await s.close();
    }
  });

  test("a request the server withdraws (the call is cancelled) disappears from the page", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const controller = new AbortController();
      const call = s.ask(0, "Soon withdrawn", controller.signal);
      await page.getByText("Soon withdrawn").waitFor();
      controller.abort(new Error("the person changed their mind"));
      await assert.rejects(call);
      await page.getByText("Nothing to answer right now.").waitFor();
      assert.equal(await page.getByText("Soon withdrawn").count(), 0);
      assert.equal(s.ui.pending, 0);
    } finally {
      await s.close();
    }
  });

  test("a reload in the middle of a form shows the same pending request again, and it can still be answered", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Who is travelling?");
      await page.getByLabel("Your name").fill("An");
      await page.reload();
      await page.getByRole("heading", { name: "Form from alpha 1.0.0" }).waitFor();
      assert.equal(s.ui.pending, 1);
      await answerName(page, "Ana");
      assert.equal(await call, "accept Ana");
    } finally {
      await s.close();
    }
  });

  test("after the page closes, pending requests are cancelled once the grace period passes, and the log says so", async () => {
    const s = await session(["alpha"], { disconnectGraceMs: 50 });
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Anyone there?");
      await page.getByText("Anyone there?").waitFor();
      await page.close();
      assert.equal(await call, "cancel");
      assert.deepEqual(s.logs, ["No page was open for 0.1 s: cancelled 1 pending request."]);
    } finally {
      await s.close();
    }
  });

  test("before any page has connected nothing is cancelled, even with no grace at all; once one has and leaves, it is", async () => {
    const s = await session(["alpha"], { disconnectGraceMs: 0 });
    try {
      const call = s.ask(0, "Still opening the browser?");
      await waitFor(() => s.ui.pending > 0, { timeoutMs: 10_000, what: "the request to reach the web UI" });
      // A 0 ms grace timer, had one been armed, fires before this later timer.
      await new Promise((resolve) => setTimeout(resolve, 20));
      assert.equal(s.ui.pending, 1);
      const { page } = await openPage(s.ui);
      await page.getByText("Still opening the browser?").waitFor();
      await page.close();
      assert.equal(await call, "cancel");
      assert.deepEqual(s.logs, ["No page was open for 0 s: cancelled 1 pending request."]);
    } finally {
      await s.close();
    }
  });

  test("close() cancels what is pending and tells the page the session ended", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Still there?");
      await page.getByText("Still there?").waitFor();
      await s.ui.close();
      assert.equal(await call, "cancel");
      await page.getByText("The host ended this session.").waitFor();
      await page.getByText("This session has ended; you can close this tab.").waitFor();
    } finally {
      await s.close();
    }
  });
});

describe("webUI refuses what lacks the secret, comes from another Host or Origin, or does not fit", { skip: needs("chromium") }, () => {
  test("no secret, a wrong secret, a foreign Host: refused with no body", async () => {
    const s = await session([]);
    try {
      const { origin, host } = new URL(s.ui.pageUrl);
      const wrong = "A".repeat(43);
      for (const [url, headers, status] of [
        [`${origin}/`, {}, 404],
        [`${origin}/${wrong}/`, {}, 404],
        [`${origin}/${wrong}/events`, {}, 404],
        [s.ui.pageUrl, { Host: `evil.example:${new URL(origin).port}` }, 403],
        [s.ui.pageUrl + "events", { Host: "127.0.0.1" }, 403],
        [s.ui.pageUrl + "events", { Origin: "http://evil.example" }, 403],
        [s.ui.pageUrl + "events", { Origin: `http://${host}.evil.example` }, 403],
      ] as const) {
        const response = await rawRequest(url, { headers });
        assert.equal(response.status, status, `${url} ${JSON.stringify(headers)}`);
        assert.equal(response.body, "");
      }
      const page = await rawRequest(s.ui.pageUrl);
      assert.equal(page.status, 200);
      assert.match(page.body, /<script type="module" src="page.js">/);
    } finally {
      await s.close();
    }
  });

  test("only loopback addresses are served; a browser that would not open is logged without the secret", async () => {
    await assert.rejects(
      webUI({ open: false, host: "0.0.0.0" as "127.0.0.1" }),
      /webUI: host must be a loopback address \(127\.0\.0\.1, localhost or ::1\); got "0\.0\.0\.0"\./,
    );
    const logs: string[] = [];
    const opened: string[] = [];
    const ui = await webUI({
      log: (line) => logs.push(line),
      open: async (url) => {
        opened.push(url);
        throw new Error(`no browser to open ${url}`);
      },
    });
    try {
      assert.deepEqual(opened, [ui.pageUrl]);
      await new Promise((resolve) => setImmediate(resolve));
      const secret = new URL(ui.pageUrl).pathname.split("/")[1]!;
      assert.equal(logs.length, 1);
      assert.match(
        logs[0]!,
        /^Could not open a browser \(no browser to open http:\/\/127\.0\.0\.1:\d+\/…\/\); open the address yourself\.$/,
      );
      assert.ok(!logs[0]!.includes(secret));
    } finally {
      await ui.close();
    }
  });

  test("the page is served with a CSP that forbids inline code and framing, no referrer, no caching", async () => {
    const s = await session([]);
    try {
      const response = await fetch(s.ui.pageUrl);
      assert.equal(response.headers.get("content-security-policy")?.startsWith("default-src 'self'; frame-ancestors 'none'"), true);
      assert.equal(response.headers.get("referrer-policy"), "no-referrer");
      assert.equal(response.headers.get("x-content-type-options"), "nosniff");
      assert.equal(response.headers.get("cache-control"), "no-store");
    } finally {
      await s.close();
    }
  });

  test("a page of another origin in the same browser cannot answer: 403, and the request stays pending", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Who is travelling?");
      await page.getByText("Who is travelling?").waitFor();
      const id = await firstRequestId(s.ui);

      // A page of another origin: a real server on 127.0.0.1 too (a public origin would be stopped by Chromium's own local-network checks first).
      const other = createServer((_req, res) =>
        res.writeHead(200, { "Content-Type": "text/html" }).end("<!doctype html><title>other</title>"),
      );
      await new Promise<void>((resolve) => other.listen(0, "127.0.0.1", resolve));
      after(() => void other.close());
      const evilOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
      const evil = await browser().newPage();
      await evil.goto(`${evilOrigin}/`);
      const body = JSON.stringify({ id, answer: { action: "accept", content: { fullName: "Mallory" } } });
      const attempts = await evil.evaluate(
        async ({ url, body }) => {
          // A simple request (no preflight) and a JSON one (preflighted): both reach the host with the other Origin.
          const simple = await fetch(url, { method: "POST", mode: "no-cors", headers: { "Content-Type": "text/plain" }, body }).then(
            (r) => r.type,
            () => "failed",
          );
          const json = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body }).then(
            (r) => String(r.status),
            () => "failed",
          );
          return { simple, json };
        },
        { url: s.ui.pageUrl + "answers", body },
      );
      assert.deepEqual(attempts, { simple: "opaque", json: "failed" });
      const direct = await rawRequest(s.ui.pageUrl + "answers", {
        method: "POST",
        headers: { "Content-Type": "application/json", Origin: evilOrigin },
        body,
      });
      assert.equal(direct.status, 403);
      assert.equal(s.ui.pending, 1);

      await answerName(page, "Ana");
      assert.equal(await call, "accept Ana");
      await evil.close();
    } finally {
      await s.close();
    }
  });

  test("an answer altered on its way (a tampered page) is refused: the page says why and asks again", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Who is travelling?");
      // The first answer is rewritten in flight to break the form's rule (at least 2 characters); later ones pass.
      let altered = false;
      await page.route("**/answers", (route) => {
        if (altered) return route.continue();
        altered = true;
        const body = JSON.parse(route.request().postData()!) as { id: string; answer: { content: Record<string, string> } };
        body.answer.content.fullName = "A";
        return route.continue({ postData: JSON.stringify(body) });
      });
      await answerName(page, "Ana");
      await page
        .getByRole("alert")
        .filter({ hasText: /^The answer does not fit the form: Your name/ })
        .waitFor();
      await page.getByRole("heading", { name: "Form from alpha 1.0.0" }).waitFor();
      assert.equal(s.ui.pending, 1);
      await answerName(page, "Ana");
      assert.equal(await call, "accept Ana");
    } finally {
      await s.close();
    }
  });

  test("answers are checked on the server: content type, shape, the form's rules, unknown and finished ids", async () => {
    const s = await session(["alpha"]);
    try {
      const { page } = await openPage(s.ui);
      const call = s.ask(0, "Who is travelling?");
      await page.getByText("Who is travelling?").waitFor();
      const id = await firstRequestId(s.ui);
      const post = (body: unknown, type = "application/json") =>
        rawRequest(s.ui.pageUrl + "answers", { method: "POST", headers: { "Content-Type": type }, body: JSON.stringify(body) });
      const error = (r: { body: string }) => (JSON.parse(r.body) as { error: string }).error;

      assert.equal((await post({ id, answer: { action: "accept", content: { fullName: "Ana" } } }, "text/plain")).status, 415);
      const shape = await post({ id, answer: { action: "maybe" } });
      assert.deepEqual([shape.status, error(shape)], [400, "answer.action must be one of accept, decline, cancel."]);
      const rules = await post({ id, answer: { action: "accept", content: { fullName: "A" } } });
      assert.equal(rules.status, 422);
      assert.match(error(rules), /^The answer does not fit the form: Your name .*2/);
      const unknown = await post({ id: "not-a-request", answer: { action: "cancel" } });
      assert.equal(unknown.status, 404);
      const big = await post({ id, answer: { action: "accept", content: { fullName: "x".repeat(1024 * 1024) } } });
      assert.equal(big.status, 413);
      assert.equal(s.ui.pending, 1);

      assert.equal((await post({ id, answer: { action: "accept", content: { fullName: "Ana" } } })).status, 204);
      assert.equal(await call, "accept Ana");
      const late = await post({ id, answer: { action: "decline" } });
      assert.deepEqual([late.status, error(late)], [409, "This request was already answered or withdrawn."]);
    } finally {
      await s.close();
    }
  });
});
