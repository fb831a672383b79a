// A host page that embeds <mcp-elicit-form>: it serves the form's own file, hands the element a request and
// takes the person's answer back, under a strict Content-Security-Policy. It answers one form, then stops.
// Run: npx tsx examples/web-embed.ts, and open the address it prints.
import { createServer } from "node:http";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { choice, form, validateContent, yesNo } from "mcp-elicit/schema";

// The form's own file defines <mcp-elicit-form> and needs nothing else (no framework, no other file); it leaves out
// what the other elements need, such as the link analysis' public suffix list ("mcp-elicit/web/elements" has all three).
const formElement = await readFile(fileURLToPath(import.meta.resolve("mcp-elicit/web/elements/form")));

const request = {
  message: "Confirm your Barcelona booking",
  requestedSchema: form({
    confirmBooking: yesNo({ title: "Confirm booking", description: "Flights + Hotel = $3,000" }),
    seatPreference: choice({ window: "Window", aisle: "Aisle" }, { title: "Seat" }).optional(),
  }),
  server: { name: "travel", version: "1.0.0" },
};

const page = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Booking</title>
<script type="module" src="/mcp-elicit-form.js"></script><script type="module" src="/app.js"></script></head>
<body><main><h1>Booking</h1><mcp-elicit-form></mcp-elicit-form></main></body></html>`;

// The page's own script is a file too: the CSP below allows no inline script.
const app = `const form = document.querySelector("mcp-elicit-form");
form.request = await (await fetch("/request")).json();
form.addEventListener("mcp-elicit-answer", (event) => fetch("/answer", { method: "POST", body: JSON.stringify(event.detail) }));`;

const files: Record<string, [string, string | Buffer]> = {
  "/": ["text/html", page],
  "/mcp-elicit-form.js": ["text/javascript", formElement],
  "/app.js": ["text/javascript", app],
  "/request": ["application/json", JSON.stringify(request)],
};

const server = createServer(async (req, res) => {
  const headers = { "content-security-policy": "default-src 'self'" };
  if (req.method === "POST" && req.url === "/answer") {
    let body = "";
    for await (const chunk of req) if ((body += chunk).length > 100_000) return void res.writeHead(413).end();
    // What a page posts is untrusted like any input: checked before use, the content by the same validateContent
    // as a client's, and nothing of it printed unchecked.
    let answer: { action?: unknown; content?: unknown };
    try {
      answer = JSON.parse(body);
    } catch {
      return void res.writeHead(400, headers).end();
    }
    const verdict = answer.action === "accept" ? validateContent(request.requestedSchema, answer.content) : undefined;
    if (verdict && !verdict.ok) return void res.writeHead(422, headers).end(JSON.stringify(verdict.errors));
    if (!verdict && answer.action !== "decline" && answer.action !== "cancel") return void res.writeHead(400, headers).end();
    res.writeHead(204, headers).end();
    console.log(verdict ? `accept ${JSON.stringify(verdict.value)}` : answer.action);
    server.close();
    return;
  }
  const file = files[req.url ?? "/"];
  res.writeHead(file ? 200 : 404, { ...headers, "content-type": file?.[0] ?? "text/plain" }).end(file?.[1] ?? "not found");
});
server.listen(Number(process.env.PORT ?? 0), "127.0.0.1", () => {
  const address = server.address();
  console.log(`Open http://127.0.0.1:${typeof address === "object" && address ? address.port : ""}/`);
});
