// ctx.elicitFile: the person uploads a file on the kit's own page (out of the client's and the model's sight),
// and the tool gets a handle: the name as given (inert), the type found in the content, the size, a SHA-256
// and the bytes. Run: npx tsx examples/url-file.ts
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { McpServer } from "@modelcontextprotocol/server";
import { attachElicitation, type ElicitationUI } from "mcp-elicit/client";
import { createElicitation, createUrlKit, directorySink } from "mcp-elicit/server";
import { serveHttp } from "mcp-elicit/node";

//#region elicitFile
// Large files go to a directory (or your own FileSink: an object store); without `files`, the kit's store keeps small ones.
const uploads = mkdtempSync(join(tmpdir(), "uploads-"));
const urlKit = createUrlKit({ identity: "loopback", serverName: "visas", files: { sink: directorySink(uploads) } });
const kit = createElicitation({ urlKit });

function createServer() {
  const server = new McpServer({ name: "visas", version: "1.0.0" });
  kit.registerTool(server, "apply_for_visa", { description: "Apply with the passport's photo page" }, async (_args, ctx) => {
    const result = await ctx.elicitFile("Upload the photo page of your passport", {
      accept: ["application/pdf", "image/jpeg", "image/png"],
      maxBytes: 10 * 1024 * 1024,
    });
    if (result.outcome !== "completed") return { content: [{ type: "text", text: `No passport (${result.outcome}).` }] };
    const [passport] = result.files;
    const bytes = await passport!.read(); // or passport.stream() for a large file
    console.log(passport!.name, passport!.type, passport!.size, bytes.length); // -> passport.pdf application/pdf 22 22
    return { content: [{ type: "text", text: `Received ${passport!.name} (sha256 ${passport!.sha256.slice(0, 12)}…).` }] };
  });
  return server;
}
//#endregion elicitFile

const http = await serveHttp(createServer, { urlKit });

// The person's browser, scripted: the upload page's own requests (the page shows a file picker, a drop zone and a Send button).
const ui: ElicitationUI = {
  async form() {
    return { action: "cancel" };
  },
  async url({ analysis }) {
    setImmediate(async () => {
      const page = new URL(analysis.url.replace("/connect/", "/file/"));
      const opened = await fetch(page);
      const cookie = opened.headers.getSetCookie()[0]!.split(";")[0]!;
      const csrf = /"csrf":"([^"]+)"/.exec(await opened.text())![1]!;
      const headers = { cookie, origin: page.origin, "x-csrf-token": csrf, "x-file-name": "passport.pdf", "x-file-index": "0", "x-file-total": "1" };
      await fetch(page, { method: "POST", headers, body: "%PDF-1.7 passport page" });
    });
    return "accept";
  },
  notice() {},
};
const client = new Client({ name: "host", version: "1.0.0" });
const { callTool } = attachElicitation(client, { ui });
await client.connect(new StreamableHTTPClientTransport(http.url));
const result = await callTool({ name: "apply_for_visa", arguments: {} });
console.log((result.content as Array<{ text: string }>)[0]!.text.replace(/sha256 \w+/, "sha256 <digest>")); // -> Received passport.pdf (sha256 <digest>…).
await client.close();
await http.close();
await urlKit.close();
rmSync(uploads, { recursive: true, force: true });
