// App-rendered elicitation (SEP-3118) through MCP Inspector 2.12's web client, in headless Chromium: the
// Inspector (its own launcher, on 127.0.0.1, a free port, no network, secrets in memory, a temp HOME) connects by
// its deep link to the travel server over Streamable HTTP, whose kit has `appElicitation: true`. book_trip is run
// from the Inspector's Tools tab; each of its two forms is shown by the Inspector as the kit's form app (its
// app-elicitation dialog, the app in the Inspector's sandbox frame), answered there, and the booking completes.
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { randomBytes } from "node:crypto";
import { createRequire } from "node:module";
import type { Browser, Page } from "playwright-core";
import { DEMO_TRIP } from "../../src/servers/travel/flights.js";
import type { Booking } from "../../src/servers/travel/bookings.js";
import { createTravelServer } from "../../src/servers/travel/server.js";
import { serveHttp, type HttpServerHandle } from "../../src/server/http/serve.js";
import { createElicitation } from "../../src/server/kit/elicitation.js";
import { launchChromium } from "../helpers/chromium.js";
import { killOnExit } from "../helpers/cleanup.js";
import { needs } from "../helpers/needs.js";
import { ensurePageBundles } from "../helpers/url-pages.js";

const SLOW = { timeout: 60_000 };
const launcher = createRequire(import.meta.url)
  .resolve("@modelcontextprotocol/inspector/package.json")
  .replace(/package\.json$/, "clients/launcher/build/index.js");

/** A port free now: the Inspector's web server needs a fixed one (CLIENT_PORT). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

/** Starts the Inspector's web client and resolves with its address once it says it is up. */
async function startInspector(home: string, token: string): Promise<{ child: ChildProcess; origin: string }> {
  const port = await freePort();
  const child = killOnExit(
    spawn(process.execPath, [launcher, "--web"], {
      cwd: home,
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        HOME: home,
        HOST: "127.0.0.1",
        CLIENT_PORT: String(port),
        MCP_SANDBOX_PORT: "0",
        MCP_APP_ORIGIN_PORT: "0",
        MCP_AUTO_OPEN_ENABLED: "false",
        MCP_INSPECTOR_API_TOKEN: token,
        MCP_INSPECTOR_SECRET_STORE: "memory",
        MCP_STORAGE_DIR: home,
      },
    }),
  );
  let output = "";
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the Inspector did not start in 60 s:\n${output}`)), 60_000);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes("is up and running")) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`the Inspector exited (${code}):\n${output}`));
    });
  });
  return { child, origin: `http://127.0.0.1:${port}` };
}

describe("app-rendered elicitation in MCP Inspector 2.12's web client", { skip: needs("chromium") }, () => {
  let http: HttpServerHandle;
  let browser: Browser;
  let inspector: { child: ChildProcess; origin: string };
  let home: string;
  const token = randomBytes(16).toString("hex");
  const bookings = new Map<string, Booking>();

  before(async () => {
    await ensurePageBundles();
    http = await serveHttp(createTravelServer(createElicitation({ appElicitation: true }), { store: bookings }));
    home = mkdtempSync(join(tmpdir(), "elicit-inspector-"));
    inspector = await startInspector(home, token);
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    inspector?.child.kill();
    await http?.close();
    if (home) rmSync(home, { recursive: true, force: true });
  });

  test("book_trip's two forms are shown as the kit's form app inside the Inspector, and the booking completes", async () => {
    const page: Page = await browser.newPage({ viewport: { width: 1400, height: 1000 } });
    page.setDefaultTimeout(SLOW.timeout);
    const errors: string[] = [];
    page.on("pageerror", (e) => errors.push(e.message));
    // The deep link connects without a click: the server's URL, and the auth token as autoConnect.
    const link = new URL(inspector.origin);
    link.search = new URLSearchParams({
      MCP_INSPECTOR_API_TOKEN: token,
      serverUrl: String(http.url),
      autoConnect: token,
      transport: "http",
    }).toString();
    await page.goto(String(link));
    await page.getByText("Connected", { exact: true }).waitFor();
    await page.getByText("Tools", { exact: true }).first().click();
    await page.getByText("book_trip", { exact: true }).click();
    await page.getByRole("textbox", { name: /destination/ }).fill("Barcelona");
    await page.getByRole("textbox", { name: /departDate/ }).fill(DEMO_TRIP.departDate);
    await page.getByRole("textbox", { name: /returnDate/ }).fill(DEMO_TRIP.returnDate);
    await page.getByRole("button", { name: "Execute Tool" }).click();

    // The Inspector's dialog for an app-rendered elicitation; in it, its sandbox frame, and in that, the app.
    const dialog = page.getByTestId("app-elicitation");
    await dialog.getByText("Answering through the server-provided MCP App.").waitFor();
    const app = dialog.frameLocator("iframe").frameLocator("iframe");
    await app.getByText(/Please confirm your Barcelona vacation booking details/).waitFor();
    await app.getByRole("radiogroup", { name: "Confirm booking" }).getByLabel("Yes").check();
    await app.getByRole("button", { name: "Submit" }).click();
    await app.getByRole("button", { name: "Send" }).click();

    // The second form is a second elicitation: a new dialog with the app again.
    await page
      .getByTestId("app-elicitation")
      .getByText(/Who is traveling\?/)
      .waitFor();
    const second = page.getByTestId("app-elicitation").frameLocator("iframe").frameLocator("iframe");
    await second.getByLabel("Full name").fill("Ana Garcia");
    await second.getByLabel("Email").fill("ana@example.com");
    await second.getByLabel("Phone").fill("+34 600 123 456");
    await second.getByRole("button", { name: "Submit" }).click();
    await second.getByRole("button", { name: "Send" }).click();

    await page
      .getByText(/ELC-[0-9A-Z]{6}/)
      .first()
      .waitFor();
    assert.equal(bookings.size, 1, "one booking was made");
    const [booking] = [...bookings.values()];
    assert.equal(booking!.city, "Barcelona");
    assert.deepEqual(booking!.traveler, { fullName: "Ana Garcia", email: "ana@example.com", phone: "+34 600 123 456" });
    const shown = (await page.locator("body").innerText()).match(/ELC-[0-9A-Z]{6}/)?.[0];
    assert.equal(shown, booking!.reference, "the Inspector shows the booking's reference");
    assert.equal(await page.getByTestId("app-elicitation").count(), 0, "no elicitation is left open");
    assert.deepEqual(errors, []);
    await page.close();
  });
});
