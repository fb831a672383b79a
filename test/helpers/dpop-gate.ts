// A DPoP-checking front for a protected server in the tests (serveHttp checks bearer tokens only): it
// checks each request's DPoP proof as RFC 9449 §4.3 says (typ dpop+jwt, an asymmetric alg, a public
// jwk, the signature, htm, htu, iat within 60 s, a jti never seen, ath of the token, and the token's
// cnf.jkt is the proof key's thumbprint), then hands the request on with the token as a bearer. Its
// protected-resource metadata says it accepts DPoP (RFC 9728 dpop_signing_alg_values_supported).
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { createHash } from "node:crypto";
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type JWK } from "jose";

export interface DpopGate {
  url: URL;
  /** The Authorization schemes seen on MCP requests, and the proof problems found (none when all were good). */
  schemes: string[];
  problems: string[];
  thumbprints: Set<string>;
  close(): Promise<void>;
}

/** `target()`: the server behind, once started (its `auth.resource` is this gate's URL). */
export async function startDpopGate(target: () => URL): Promise<DpopGate> {
  const schemes: string[] = [];
  const problems: string[] = [];
  const thumbprints = new Set<string>();
  const jtis = new Set<string>();
  const endpoint: { url?: URL } = {};

  async function check(method: string, authorization: string, proof: string | undefined): Promise<string | undefined> {
    const [scheme, token = ""] = authorization.split(" ");
    schemes.push(scheme!);
    if (scheme !== "DPoP") return undefined;
    if (!proof) return "no DPoP proof";
    const header = decodeProtectedHeader(proof);
    if (header.typ !== "dpop+jwt" || !header.alg || header.alg.startsWith("HS") || !header.jwk || "d" in header.jwk)
      return "bad proof header";
    const { payload } = await jwtVerify(proof, await importJWK(header.jwk as JWK, header.alg));
    if (payload.htm !== method || payload.htu !== endpoint.url?.href) return "htm or htu";
    if (typeof payload.iat !== "number" || Math.abs(Date.now() / 1000 - payload.iat) > 60) return "iat";
    if (typeof payload.jti !== "string" || jtis.has(payload.jti)) return "jti replayed";
    jtis.add(payload.jti);
    if (payload.ath !== createHash("sha256").update(token).digest("base64url")) return "ath";
    const jkt = await calculateJwkThumbprint(header.jwk as JWK, "sha256");
    if ((decodeJwt(token).cnf as { jkt?: string } | undefined)?.jkt !== jkt) return "cnf.jkt";
    thumbprints.add(jkt);
    return undefined;
  }

  const server: Server = createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const headers = new Headers();
      for (const [name, value] of Object.entries(req.headers))
        if (typeof value === "string" && name !== "host" && name !== "dpop" && name !== "content-length") headers.set(name, value);
      const authorization = req.headers.authorization;
      if (req.url?.startsWith("/mcp") && authorization) {
        const problem = await check(req.method ?? "GET", authorization, req.headers.dpop as string | undefined).catch(() => "unverifiable");
        if (problem) {
          problems.push(problem);
          res.writeHead(401, { "www-authenticate": 'DPoP error="invalid_dpop_proof"' }).end();
          return;
        }
        headers.set("authorization", `Bearer ${authorization.split(" ")[1]}`);
      }
      const upstream = await fetch(new URL(req.url ?? "/", target()), {
        method: req.method ?? "GET",
        headers,
        ...(chunks.length ? { body: Buffer.concat(chunks) } : {}),
      });
      const out: Record<string, string> = {};
      upstream.headers.forEach((value, name) => {
        if (name !== "content-length" && name !== "content-encoding") out[name] = value;
      });
      if (out["www-authenticate"]) out["www-authenticate"] = out["www-authenticate"].replace(/^Bearer/, "DPoP");
      if (req.url?.startsWith("/.well-known/oauth-protected-resource") && upstream.ok) {
        const document = (await upstream.json()) as Record<string, unknown>;
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ ...document, dpop_signing_alg_values_supported: ["ES256"] }));
        return;
      }
      res.writeHead(upstream.status, out);
      if (upstream.body) Readable.fromWeb(upstream.body as never).pipe(res);
      else res.end();
    })().catch(() => res.writeHead(502).end());
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const self = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  endpoint.url = self;
  return {
    url: self,
    schemes,
    problems,
    thumbprints,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
