// The floor of any gateway process: a relay that reads each JSON-RPC message, parses it, and writes it
// on, with no SDK, no checks and no translation. bench/gateway.ts times a call through it beside the
// direct call and the call through `elicit gateway`, so the gateway's overhead can be read against what
// a second process hop costs by itself.
//   stdio: node --import tsx bench/relay-floor.ts stdio -- <server command...>
//   HTTP:  node --import tsx bench/relay-floor.ts http <upstream URL>   (prints "relaying on URL")
import { spawn } from "node:child_process";
import { createServer, request } from "node:http";
import { createInterface } from "node:readline";

const [mode, ...rest] = process.argv.slice(2);

if (mode === "stdio") {
  const [command, ...args] = rest[0] === "--" ? rest.slice(1) : rest;
  const server = spawn(command!, args, { stdio: ["pipe", "pipe", "inherit"] });
  // Line by line, parsed and written again: the least a relay that reads what it passes must do.
  const relay = (from: NodeJS.ReadableStream, to: NodeJS.WritableStream) =>
    createInterface({ input: from }).on("line", (line) => line && to.write(JSON.stringify(JSON.parse(line)) + "\n"));
  relay(process.stdin, server.stdin!);
  relay(server.stdout!, process.stdout);
  process.stdin.on("end", () => server.kill());
  server.on("exit", (code) => process.exit(code ?? 0));
} else if (mode === "http") {
  const upstream = new URL(rest[0]!);
  const front = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = chunks.length ? JSON.stringify(JSON.parse(Buffer.concat(chunks).toString())) : undefined;
      const headers = { ...req.headers, host: upstream.host };
      if (body !== undefined) headers["content-length"] = String(Buffer.byteLength(body));
      const out = request(upstream, { method: req.method, headers }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      out.on("error", () => res.writeHead(502).end());
      out.end(body);
    });
  });
  front.listen(0, "127.0.0.1", () => {
    const { port } = front.address() as { port: number };
    process.stderr.write(`relaying on http://127.0.0.1:${port}${upstream.pathname}\n`);
  });
  process.on("SIGINT", () => process.exit(0));
} else {
  process.stderr.write("usage: relay-floor.ts stdio -- <command...> | http <URL>\n");
  process.exit(2);
}
