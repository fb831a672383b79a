// A load balancer in front of a serverless route's instances: each request goes to the next instance
// in turn, streamed both ways, and which instance took which path is recorded. The Host header is kept
// (as a platform's edge passes the public host on), or set to the instance's own with `ownHost`.
import { request as httpRequest, type IncomingMessage, type ServerResponse } from "node:http";
import { listenLocal } from "./local-server.js";

export interface Landing {
  /** The instance's index in `targets()`. */
  instance: number;
  path: string;
}

export interface RoundRobin {
  /** The balancer's endpoint: http://127.0.0.1:PORT/mcp. */
  url: URL;
  /** Where each request went, in order. */
  landed: Landing[];
  close(): void;
}

/** Listens on 127.0.0.1; `targets` is read at each request, so the instances may start after the balancer. */
export async function roundRobin(targets: () => URL[], options: { ownHost?: boolean } = {}): Promise<RoundRobin> {
  const landed: Landing[] = [];
  const pass = (req: IncomingMessage, res: ServerResponse) => {
    const all = targets();
    const instance = landed.length % all.length;
    landed.push({ instance, path: req.url ?? "/" });
    const target = all[instance]!;
    const headers = options.ownHost ? { ...req.headers, host: target.host } : req.headers;
    const upstream = httpRequest({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on("error", () => res.destroy());
    req.pipe(upstream);
  };
  const { url, close } = await listenLocal(pass);
  return { url, landed, close };
}
