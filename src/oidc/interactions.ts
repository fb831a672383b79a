// The sign-in and consent steps of the local OpenID provider (oidc-provider hands them to the app as
// "interactions" under /interaction/UID). Usernames and passwords are compared in constant time;
// nothing typed into the form is logged.
import { createHash, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { consentPage, errorPage, loginPage, PAGE_CSP } from "./pages.js";
import type { DemoUser } from "./users.js";

/** The most a sign-in or consent form body may hold. */
const MAX_FORM_BYTES = 16 * 1024;

function send(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    "content-type": "text/html; charset=utf-8",
    "content-security-policy": PAGE_CSP,
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
  });
  res.end(html);
}

/** The sign-in form, or undefined when it is larger than any real one (answered 413). */
async function readForm(req: IncomingMessage): Promise<URLSearchParams | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_FORM_BYTES) return undefined;
    chunks.push(chunk);
  }
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, so the comparison time says nothing about the expected value.
  const digest = (s: string) => createHash("sha256").update(s, "utf8").digest();
  return timingSafeEqual(digest(given), digest(expected));
}

function findUser(users: readonly DemoUser[], username: string, password: string): DemoUser | undefined {
  let found: DemoUser | undefined;
  // Every account is checked, so the time taken does not say which usernames exist.
  for (const user of users) if (sameSecret(username, user.id) && sameSecret(password, user.password)) found = user;
  return found;
}

async function clientNameOf(provider: Provider, clientId: unknown): Promise<string> {
  if (typeof clientId !== "string") return "An application";
  const client = await provider.Client.find(clientId);
  return (client?.clientName as string | undefined) ?? clientId;
}

/** One step of a sign-in: the provider's view of it, and what the pages need. */
interface Step {
  provider: Provider;
  users: readonly DemoUser[];
  hint: string | undefined;
  req: IncomingMessage;
  res: ServerResponse;
  details: Awaited<ReturnType<Provider["interactionDetails"]>>;
  /** The path of this interaction, /interaction/UID. */
  base: string;
  /** The name of the application asking. */
  clientName: string;
}

/** Handles /interaction/UID[/login|/confirm|/abort]; answers false for any other path. */
export function interactionHandler(provider: Provider, users: readonly DemoUser[], hint: string | undefined) {
  return async (req: IncomingMessage, res: ServerResponse): Promise<boolean> => {
    const path = new URL(req.url ?? "/", "http://localhost").pathname;
    const match = /^\/interaction\/([A-Za-z0-9_-]+)(?:\/(login|confirm|abort))?$/.exec(path);
    if (!match) return false;
    const [, uid, step] = match;
    try {
      if ((step === undefined) !== (req.method === "GET")) {
        send(res, 405, errorPage({ error: "method_not_allowed", error_description: `${req.method} is not allowed here` }));
        return true;
      }
      const details = await provider.interactionDetails(req, res);
      if (details.uid !== uid) throw new Error("the sign-in step does not match this browser's sign-in");
      const clientName = await clientNameOf(provider, details.params.client_id);
      const at: Step = { provider, users, hint, req, res, details, base: `/interaction/${uid}`, clientName };
      if (step === undefined) showPage(at);
      else if (step === "login") await signIn(at);
      else if (step === "abort") await deny(at);
      else await consent(at);
      return true;
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (!res.headersSent) send(res, 400, errorPage({ error: "interaction_failed", error_description: message }));
      else res.end();
      return true;
    }
  };
}

/** GET: the sign-in form, or the consent page once someone is signed in. */
function showPage({ users, hint, res, details, base, clientName }: Step): void {
  if (details.prompt.name === "login") {
    send(res, 200, loginPage({ action: `${base}/login`, clientName, hint }));
    return;
  }
  const missing = details.prompt.details as { missingOIDCScope?: string[]; missingResourceScopes?: Record<string, string[]> };
  const user = users.find((u) => u.id === details.session?.accountId);
  send(
    res,
    200,
    consentPage({
      action: `${base}/confirm`,
      abortAction: `${base}/abort`,
      clientName,
      user: user?.name ?? details.session?.accountId ?? "",
      resources: missing.missingResourceScopes ?? {},
      scopes: missing.missingOIDCScope ?? [],
    }),
  );
}

/** POST login: a known username and its password sign the person in; anything else shows the form again. */
async function signIn({ provider, users, hint, req, res, details, base, clientName }: Step): Promise<void> {
  if (details.prompt.name !== "login") throw new Error("this sign-in step is not waiting for a password");
  const form = await readForm(req);
  if (!form) {
    send(res, 413, errorPage({ error: "interaction_failed", error_description: `the form is larger than ${MAX_FORM_BYTES} bytes` }));
    return;
  }
  const username = form.get("username") ?? "";
  const user = findUser(users, username, form.get("password") ?? "");
  if (!user) {
    send(res, 401, loginPage({ action: `${base}/login`, clientName, hint, username, error: "Wrong username or password." }));
    return;
  }
  await provider.interactionFinished(req, res, { login: { accountId: user.id } }, { mergeWithLastSubmission: false });
}

/** POST abort: the person denied access. */
async function deny({ provider, req, res }: Step): Promise<void> {
  await provider.interactionFinished(
    req,
    res,
    { error: "access_denied", error_description: "the person denied access" },
    { mergeWithLastSubmission: false },
  );
}

/** POST confirm: grant what the consent prompt lists as missing, nothing else. */
async function consent({ provider, req, res, details }: Step): Promise<void> {
  if (details.prompt.name !== "consent") throw new Error("this sign-in step is not waiting for consent");
  const accountId = details.session?.accountId;
  if (!accountId) throw new Error("nobody is signed in");
  const missing = details.prompt.details as {
    missingOIDCScope?: string[];
    missingOIDCClaims?: string[];
    missingResourceScopes?: Record<string, string[]>;
  };
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error("the grant of this sign-in has expired");
  if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "));
  if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
  for (const [resource, scopes] of Object.entries(missing.missingResourceScopes ?? {})) grant.addResourceScope(resource, scopes.join(" "));
  const grantId = await grant.save();
  await provider.interactionFinished(req, res, { consent: details.grantId ? {} : { grantId } }, { mergeWithLastSubmission: true });
}
