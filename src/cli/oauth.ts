// Signing in from the CLI: the options (--token, --client-id, --client-secret, --client-metadata-url,
// --no-browser; --client-credentials and --jwt-bearer in machine-auth.ts), the consent before the
// browser opens, the address printed when no browser opened, and `elicit logout`.
import ora from "ora";
import { LoginError } from "../client/oauth/errors.js";
import { fileTokenStore } from "../client/oauth/file-store.js";
import { checkIssuerUrl } from "../client/oauth/pinned-issuer.js";
import { OAuthProvider, type SignInRequest } from "../client/oauth/provider.js";
import { memoryTokenStore, type TokenStore } from "../client/oauth/token-store.js";
import type { ElicitationUI, UIContext } from "../client/ui.js";
import { analyzeUrl, hostForDisplay } from "../client/url-safety/analyze.js";
import { browserOpener } from "../common/open-url.js";
import { sanitizeText } from "../common/sanitize.js";
import { LATEST_REVISION } from "../schema/types.js";
import { terminalUI } from "../ui/terminal/index.js";
import { HostError } from "./exit.js";
import { machineAuthOf, type MachineAuth, type MachineFlags } from "./machine-auth.js";

/** The sign-in options as the commands take them. */
export interface AuthFlags extends MachineFlags {
  token?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  /** Commander's --no-browser: false when given. */
  browser?: boolean;
  /** --dpop: DPoP-bound tokens wherever the authorization server offers them. */
  dpop?: boolean;
}

/** How the host signs in to a server that asks for it. */
export interface HostAuth {
  /** A bearer token given by hand (--token, ELICIT_TOKEN): sent as it is, never stored, no sign-in. */
  token?: string;
  clientId?: string;
  clientSecret?: string;
  clientMetadataUrl?: string;
  /** --issuer: the one authorization server a hand-given client's credentials may go to. */
  issuer?: string;
  /** Sign in with no person (--client-credentials, --jwt-bearer): no browser, no consent, nothing stored. */
  machine?: MachineAuth;
  /** Print the sign-in address instead of opening a browser. */
  noBrowser: boolean;
  /** --dpop: ask for DPoP-bound tokens wherever the authorization server offers them (else where the server also says it accepts them). */
  dpop?: boolean;
  /** A person at a terminal answers the consent question (else the command's UI does, e.g. an answers file). */
  interactive: boolean;
  /** The command's UI opens a URL itself once consented to (the web page does; an answers file does not). */
  uiOpensUrls: boolean;
  store: TokenStore;
  signInTimeoutMs?: number;
}

const DEFAULT_SIGN_IN_TIMEOUT_S = 300;

/** The flags and environment as HostAuth. Secrets are checked for shape only, and never quoted back. */
export function hostAuthOf(flags: AuthFlags, interactive: boolean, uiOpensUrls = false, env: NodeJS.ProcessEnv = process.env): HostAuth {
  const token = flags.token ?? (env.ELICIT_TOKEN?.trim() || undefined);
  const clientSecret = flags.clientSecret ?? (env.ELICIT_CLIENT_SECRET || undefined);
  if (token !== undefined && !/^[\x21-\x7e]+$/.test(token))
    throw new HostError(
      `${flags.token !== undefined ? "--token" : "ELICIT_TOKEN"} must be a bearer token: printable ASCII without spaces.`,
    );
  if (flags.dpop === true && token !== undefined)
    throw new HostError(
      "--dpop binds the tokens elicit asks for to a key: it cannot go with --token (or ELICIT_TOKEN), which is sent as it is.",
    );
  if (clientSecret !== undefined && flags.clientId === undefined)
    throw new HostError("--client-secret (or ELICIT_CLIENT_SECRET) needs --client-id: the secret belongs to a pre-registered client.");
  if (flags.issuer !== undefined) {
    try {
      checkIssuerUrl(flags.issuer, "--issuer");
    } catch (error) {
      throw new HostError((error as Error).message);
    }
  }
  if (flags.clientMetadataUrl !== undefined) {
    let url: URL | undefined;
    try {
      url = new URL(flags.clientMetadataUrl);
    } catch {
      url = undefined;
    }
    if (!url || url.protocol !== "https:" || url.pathname === "/")
      throw new HostError("--client-metadata-url must be an https URL with a path (the client's metadata document).");
  }
  const machine = machineAuthOf(flags, {
    ...(flags.clientId !== undefined ? { clientId: flags.clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(token !== undefined ? { token } : {}),
    ...(flags.clientMetadataUrl !== undefined ? { clientMetadataUrl: flags.clientMetadataUrl } : {}),
  });
  if (!machine && clientSecret !== undefined && flags.issuer === undefined)
    throw new HostError(
      `${flags.clientSecret !== undefined ? "--client-secret" : "ELICIT_CLIENT_SECRET"} needs --issuer URL: the authorization server the secret may be sent to (an MCP server is not trusted to name it).`,
    );
  const timeout = env.ELICIT_SIGN_IN_TIMEOUT?.trim();
  const seconds = timeout ? Number(timeout) : DEFAULT_SIGN_IN_TIMEOUT_S;
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new HostError(`ELICIT_SIGN_IN_TIMEOUT takes a number of seconds greater than 0; got ${JSON.stringify(timeout)}.`);
  return {
    ...(token !== undefined ? { token } : {}),
    ...(flags.clientId !== undefined ? { clientId: flags.clientId } : {}),
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(flags.clientMetadataUrl !== undefined ? { clientMetadataUrl: flags.clientMetadataUrl } : {}),
    ...(flags.issuer !== undefined ? { issuer: flags.issuer } : {}),
    ...(machine ? { machine } : {}),
    noBrowser: flags.browser === false,
    ...(flags.dpop === true ? { dpop: true } : {}),
    interactive,
    uiOpensUrls,
    store: fileTokenStore(),
    signInTimeoutMs: Math.round(seconds * 1000),
  };
}

const line = (text: string) => process.stderr.write(text + "\n");

/**
 * Opens a URL the person consented to through the one opener (BROWSER, else the system's opener; see
 * common/open-url.ts). When nothing opened (--no-browser, no display, the opener failed) the address is
 * printed on a line of its own, to open by hand. For a caller without a terminal UI to say so.
 */
export function urlOpener(noBrowser: boolean, env: NodeJS.ProcessEnv = process.env): (url: string) => Promise<void> {
  const open = browserOpener({ noBrowser, env });
  return async (url) => {
    try {
      await open(url);
    } catch (error) {
      line(`elicit: ${error instanceof Error ? error.message : String(error)}; open this address in your browser:`);
      line(url);
    }
  };
}

const inert = (text: string) => sanitizeText(text, { maxLength: 200, multiline: false });

/**
 * The provider's authorize(): the consent question with the authorization URL's analysis (the
 * authorization server's host highlighted, its warnings), then the browser. At a terminal the
 * question is the terminal UI's URL consent; otherwise the command's UI answers (an answers file
 * entry matching "Sign in", or the web page, which opens the address itself), and the browser is
 * opened here unless the UI did.
 */
export function authorizeWith(auth: HostAuth, ui: ElicitationUI): (request: SignInRequest) => Promise<void> {
  // At a terminal the UI says whether the browser opened; otherwise the address is printed when it did not.
  const openAtTerminal = auth.noBrowser ? false : browserOpener();
  const openUrl = urlOpener(auth.noBrowser);
  return async (request) => {
    const analysis = analyzeUrl(request.url.href);
    const server = inert(new URL(request.server).host);
    if (!analysis.ok)
      throw new LoginError(
        "failed",
        `the authorization server's sign-in address cannot be opened: ${inert(analysis.refusal ?? "refused")}`,
      );
    const at = inert(hostForDisplay(analysis));
    const message =
      request.reason === "expired"
        ? `Sign in again to ${server}: the saved sign-in has expired and could not be renewed. The sign-in page is at ${at}.`
        : request.reason === "step-up"
          ? `Sign in to ${server} again to grant more permissions: the server needs them for this request. The sign-in page is at ${at}.`
          : `Sign in to ${server}: it requires authorization. Its sign-in page is at ${at}, its authorization server.`;
    const context: UIContext = { server: { name: server, version: "" }, protocol: LATEST_REVISION, signal: request.signal };
    const answer = auth.interactive
      ? await terminalUI({ output: process.stderr, openUrl: openAtTerminal }).url({ message, analysis }, context)
      : await ui.url({ message, analysis }, context);
    if (answer !== "accept") {
      const why = request.reason === "expired" ? "the saved sign-in has expired and could not be renewed, and " : "";
      throw new LoginError(
        "declined",
        auth.interactive
          ? `${why}you did not consent to sign in at ${at}, so ${server} was not called.`
          : `${why}consent to sign in at ${at} was not given (an answers file entry matching "Sign in" with action: accept gives it), so ${server} was not called.`,
      );
    }
    if (!auth.interactive && !auth.uiOpensUrls) await openUrl(analysis.url);
  };
}

/** Shows that elicit waits for the browser to come back: a spinner at a terminal, one line otherwise. Returns the function that ends it. */
export function showWaiting(info: { redirectUrl: string; timeoutMs: number }): () => void {
  const text = `Waiting for the sign-in to come back to ${info.redirectUrl} (gives up after ${Math.round(info.timeoutMs / 1000)} s)`;
  if (!process.stderr.isTTY) {
    line(`elicit: ${text}.`);
    return () => {};
  }
  const spinner = ora({ text: `${text}…`, stream: process.stderr, discardStdin: false }).start();
  return () => spinner.stop();
}

/** `elicit logout [URL]`: forgets the sign-in to one server, or to all; says what it forgot. */
export async function logout(url: string | undefined, store: TokenStore = fileTokenStore()): Promise<number> {
  if (url !== undefined) {
    let key: string;
    try {
      key = new URL(url).href;
    } catch {
      line(`elicit: ${JSON.stringify(inert(url))} is not a URL.`);
      return 2;
    }
    const forgot = await store.delete(key);
    line(forgot ? `elicit: forgot the sign-in to ${inert(key)}.` : `elicit: no sign-in saved for ${inert(key)}; nothing to forget.`);
    return 0;
  }
  const servers = await store.servers();
  for (const server of servers) await store.delete(server);
  line(servers.length === 0 ? "elicit: no saved sign-ins; nothing to forget." : `elicit: forgot ${servers.length} sign-in(s):`);
  for (const server of servers) line(`  ${inert(server)}`);
  return 0;
}

/** What signs the HTTP requests: a bearer given by hand, the OAuth provider, or nothing. */
export type Signer = { token: string } | { provider: OAuthProvider } | undefined;

/** The bearer given by hand, else an OAuth provider for an HTTP server (its loopback listener bound), else nothing (stdio). */
export async function signerFor(auth: HostAuth | undefined, url: URL | undefined, ui: ElicitationUI): Promise<Signer> {
  if (!auth) return undefined;
  if (!url) {
    // Said rather than silently dropped: a person who gave a token expects it to be used.
    const given = [
      auth.token !== undefined && "a token",
      auth.clientId !== undefined && "a client id",
      auth.machine?.grant.type === "jwt-bearer" && "a workload's JWT",
      auth.machine?.grant.type === "id-jag" && "an identity token",
    ].filter(Boolean);
    if (given.length)
      process.stderr.write(`elicit: ${given.join(" and ")} was given but not used: a stdio server gets no HTTP authorization.\n`);
    return undefined;
  }
  if (auth.token !== undefined) return { token: auth.token };
  // A machine asks for a token on each run (and again when it expires): nothing is written down, and
  // no person's saved sign-in to the same server is read or replaced.
  if (auth.machine)
    return {
      provider: await OAuthProvider.create({
        serverUrl: url,
        store: memoryTokenStore(),
        grant: auth.machine.grant,
        expectedIssuer: auth.machine.issuer,
        ...(auth.machine.clientId !== undefined ? { clientId: auth.machine.clientId } : {}),
        ...(auth.machine.clientSecret !== undefined ? { clientSecret: auth.machine.clientSecret } : {}),
        clientName: "elicit (mcp-elicit CLI)",
        ...(auth.dpop ? { dpop: true } : {}),
      }),
    };
  const provider = await OAuthProvider.create({
    serverUrl: url,
    store: auth.store,
    authorize: authorizeWith(auth, ui),
    onWaiting: showWaiting,
    ...(auth.clientId !== undefined ? { clientId: auth.clientId } : {}),
    ...(auth.clientSecret !== undefined ? { clientSecret: auth.clientSecret } : {}),
    ...(auth.clientMetadataUrl !== undefined ? { clientMetadataUrl: auth.clientMetadataUrl } : {}),
    ...(auth.issuer !== undefined ? { expectedIssuer: auth.issuer } : {}),
    ...(auth.signInTimeoutMs !== undefined ? { signInTimeoutMs: auth.signInTimeoutMs } : {}),
    ...(auth.dpop ? { dpop: true } : {}),
    clientName: "elicit (mcp-elicit CLI)",
  });
  return { provider };
}
