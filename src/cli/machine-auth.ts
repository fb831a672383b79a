// Signing in with no person from the CLI: --client-credentials (with --client-id and a secret, from
// --client-secret or ELICIT_CLIENT_SECRET, or --client-key FILE for private_key_jwt) and --jwt-bearer
// FILE (a workload's JWT, read again for every token request), --id-jag-from FILE (a person's identity
// token and their identity provider, for enterprise-managed authorization), with --scope. The flags
// are checked before any server is contacted; a key, a secret, a JWT or a token is never quoted in a message.
import { readFileSync } from "node:fs";
import { LoginError } from "../client/oauth/errors.js";
import { checkIdJagGrant, type IdentityProvider } from "../client/oauth/id-jag.js";
import { clientKeyOf, type MachineGrant, type PrivateJwk } from "../client/oauth/machine.js";
import { HostError } from "./exit.js";

/** The machine sign-in flags as the commands take them (see serverOptions in main.ts). */
export interface MachineFlags {
  clientCredentials?: boolean;
  clientKey?: string;
  jwtBearer?: string;
  idJagFrom?: string;
  scope?: string;
  /** --issuer: the authorization server the credentials may be sent to. */
  issuer?: string;
}

/** How a machine signs in: the grant, with the client id (and secret) that go with it, and where they may go. */
export interface MachineAuth {
  grant: MachineGrant;
  issuer: string;
  clientId?: string;
  clientSecret?: string;
}

/** What hostAuthOf has already read: the client id and the secret (flag or environment), and the other sign-in flags given. */
export interface GivenAuth {
  clientId?: string;
  clientSecret?: string;
  token?: string;
  clientMetadataUrl?: string;
}

const SCOPE = /^[\x21\x23-\x5b\x5d-\x7e]+( [\x21\x23-\x5b\x5d-\x7e]+)*$/;

/** Reads a file the flag names, or says which flag's file cannot be read (never its content). */
function readFlagFile(flag: string, path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new HostError(`${flag} ${JSON.stringify(path)} cannot be read${code ? ` (${code})` : ""}.`);
  }
}

/** The workload's JWT, read afresh: the platform replaces the file before the token in it expires. */
function assertionFrom(path: string): () => string {
  return () => {
    let text: string;
    try {
      text = readFileSync(path, "utf8").trim();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new LoginError("failed", `the workload's JWT file ${JSON.stringify(path)} cannot be read${code ? ` (${code})` : ""}.`);
    }
    if (!text) throw new LoginError("failed", `the workload's JWT file ${JSON.stringify(path)} is empty.`);
    return text;
  };
}

/**
 * An --id-jag-from file: `{ "idToken": "eyJ…", "idp": { "issuer" or "tokenEndpoint", "clientId", "clientSecret"? } }`,
 * read again for every token request (whatever keeps the person's sign-in fresh rewrites it).
 */
function idJagFileReader(path: string): () => { idToken: string; idp: IdentityProvider } {
  const where = `the --id-jag-from file ${JSON.stringify(path)}`;
  return () => {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new LoginError("failed", `${where} cannot be read${code ? ` (${code})` : ""}.`);
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new LoginError("failed", `${where} is not JSON.`);
    }
    const { idToken, idp } = (parsed ?? {}) as { idToken?: unknown; idp?: unknown };
    if (typeof idToken !== "string" || !idToken.trim()) throw new LoginError("failed", `${where} has no "idToken" (the identity token).`);
    if (typeof idp !== "object" || idp === null || Array.isArray(idp))
      throw new LoginError("failed", `${where} has no "idp" object (the identity provider: issuer or tokenEndpoint, clientId).`);
    for (const key of ["issuer", "tokenEndpoint", "clientId", "clientSecret"] as const) {
      const value = (idp as Record<string, unknown>)[key];
      if (value !== undefined && typeof value !== "string") throw new LoginError("failed", `${where}: "idp.${key}" must be a string.`);
    }
    return { idToken, idp: idp as IdentityProvider };
  };
}

/** The ID-JAG grant from an --id-jag-from file, checked now so that a wrong file ends the command before any server is contacted. */
function idJagGrantOf(path: string, clientId: string | undefined, scope: { scope?: string }): MachineGrant {
  const read = idJagFileReader(path);
  let first: { idToken: string; idp: IdentityProvider };
  try {
    first = read();
    checkIdJagGrant({ type: "id-jag", idToken: () => first.idToken, idp: first.idp }, clientId ?? "-");
  } catch (error) {
    throw new HostError(
      error instanceof TypeError ? `--id-jag-from: ${error.message.replace(/^the id-jag grant/, "the file")}` : (error as Error).message,
    );
  }
  // The identity provider is read once; the identity token again for every token request.
  return { type: "id-jag", idp: first.idp, idToken: () => read().idToken, ...scope };
}

/** The machine grant the flags ask for, or undefined when they ask for none. Usage errors are HostErrors (exit 2). */
export function machineAuthOf(flags: MachineFlags, given: GivenAuth): MachineAuth | undefined {
  const ways = [
    flags.clientCredentials === true && "--client-credentials",
    flags.jwtBearer !== undefined && "--jwt-bearer",
    flags.idJagFrom !== undefined && "--id-jag-from",
  ].filter((way): way is string => typeof way === "string");
  if (ways.length === 0) {
    if (flags.clientKey !== undefined) throw new HostError("--client-key signs the client_credentials grant: add --client-credentials.");
    if (flags.scope !== undefined) throw new HostError("--scope applies to --client-credentials, --jwt-bearer and --id-jag-from.");
    return undefined;
  }
  if (ways.length > 1) throw new HostError(`${ways.join(" and ")} are ways to sign in with no browser: give one.`);
  const how = ways[0]!;
  if (flags.issuer === undefined)
    throw new HostError(
      `${how} needs --issuer URL: the authorization server its credentials may be sent to (an MCP server is not trusted to name it).`,
    );
  const issuer = { issuer: flags.issuer };
  if (given.token !== undefined) throw new HostError(`--token (or ELICIT_TOKEN) sends a token as it is: it cannot go with ${how}.`);
  if (given.clientMetadataUrl !== undefined)
    throw new HostError(`--client-metadata-url is for signing a person in: it cannot go with ${how}.`);
  if (flags.scope !== undefined && !SCOPE.test(flags.scope))
    throw new HostError("--scope takes OAuth scopes separated by single spaces (printable ASCII, no quotes or backslashes).");
  const scope = flags.scope !== undefined ? { scope: flags.scope } : {};
  const client = {
    ...(given.clientId !== undefined ? { clientId: given.clientId } : {}),
    ...(given.clientSecret !== undefined ? { clientSecret: given.clientSecret } : {}),
  };
  if (flags.idJagFrom !== undefined) {
    if (flags.clientKey !== undefined)
      throw new HostError("--client-key signs the client_credentials grant: it cannot go with --id-jag-from.");
    if (given.clientId === undefined)
      throw new HostError("--id-jag-from needs --client-id: the client the MCP server's authorization server knows (with its secret).");
    return { grant: idJagGrantOf(flags.idJagFrom, given.clientId, scope), ...client, ...issuer };
  }
  if (flags.jwtBearer !== undefined) {
    if (flags.clientKey !== undefined)
      throw new HostError("--client-key signs the client_credentials grant: it cannot go with --jwt-bearer.");
    // Checked now, so that a wrong path ends the command before any server is contacted.
    assertionFrom(flags.jwtBearer)();
    return { grant: { type: "jwt-bearer", assertion: assertionFrom(flags.jwtBearer), ...scope }, ...client, ...issuer };
  }
  if (given.clientId === undefined)
    throw new HostError("--client-credentials needs --client-id: the client the authorization server knows.");
  if (given.clientSecret !== undefined && flags.clientKey !== undefined)
    throw new HostError("--client-credentials takes a secret (--client-secret or ELICIT_CLIENT_SECRET) or --client-key, not both.");
  if (given.clientSecret === undefined && flags.clientKey === undefined)
    throw new HostError(
      "--client-credentials needs the client's secret (ELICIT_CLIENT_SECRET or --client-secret) or its private key (--client-key FILE).",
    );
  if (flags.clientKey === undefined) return { grant: { type: "client_credentials", ...scope }, ...client, ...issuer };
  const text = readFlagFile("--client-key", flags.clientKey);
  let privateKey: string | PrivateJwk;
  try {
    privateKey = text.trimStart().startsWith("{") ? (JSON.parse(text) as PrivateJwk) : text;
    clientKeyOf(privateKey);
  } catch (error) {
    const why = error instanceof TypeError ? error.message : "it is not JSON";
    throw new HostError(`--client-key ${JSON.stringify(flags.clientKey)} cannot sign: ${why}.`);
  }
  return { grant: { type: "client_credentials", privateKey, ...scope }, ...client, ...issuer };
}
