// Signing in with no person from the CLI: --client-credentials (with --client-id and a secret, from
// --client-secret or ELICIT_CLIENT_SECRET, or --client-key FILE for private_key_jwt) and --jwt-bearer
// FILE (a workload's JWT, read again for every token request), with --scope. The flags are checked
// before any server is contacted; a key, a secret or a JWT is never quoted in a message.
import { readFileSync } from "node:fs";
import { LoginError } from "../client/oauth/errors.js";
import { clientKeyOf, type MachineGrant, type PrivateJwk } from "../client/oauth/machine.js";
import { HostError } from "./exit.js";

/** The machine sign-in flags as the commands take them (see serverOptions in main.ts). */
export interface MachineFlags {
  clientCredentials?: boolean;
  clientKey?: string;
  jwtBearer?: string;
  scope?: string;
}

/** How a machine signs in: the grant, with the client id (and secret) that go with it. */
export interface MachineAuth {
  grant: MachineGrant;
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

/** The machine grant the flags ask for, or undefined when they ask for none. Usage errors are HostErrors (exit 2). */
export function machineAuthOf(flags: MachineFlags, given: GivenAuth): MachineAuth | undefined {
  const machine = flags.clientCredentials === true || flags.jwtBearer !== undefined;
  if (!machine) {
    if (flags.clientKey !== undefined) throw new HostError("--client-key signs the client_credentials grant: add --client-credentials.");
    if (flags.scope !== undefined) throw new HostError("--scope applies to --client-credentials and --jwt-bearer.");
    return undefined;
  }
  if (flags.clientCredentials === true && flags.jwtBearer !== undefined)
    throw new HostError("--client-credentials and --jwt-bearer are two ways to sign in with no person: give one.");
  const how = flags.clientCredentials ? "--client-credentials" : "--jwt-bearer";
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
  if (flags.jwtBearer !== undefined) {
    if (flags.clientKey !== undefined)
      throw new HostError("--client-key signs the client_credentials grant: it cannot go with --jwt-bearer.");
    // Checked now, so that a wrong path ends the command before any server is contacted.
    assertionFrom(flags.jwtBearer)();
    return { grant: { type: "jwt-bearer", assertion: assertionFrom(flags.jwtBearer), ...scope }, ...client };
  }
  if (given.clientId === undefined)
    throw new HostError("--client-credentials needs --client-id: the client the authorization server knows.");
  if (given.clientSecret !== undefined && flags.clientKey !== undefined)
    throw new HostError("--client-credentials takes a secret (--client-secret or ELICIT_CLIENT_SECRET) or --client-key, not both.");
  if (given.clientSecret === undefined && flags.clientKey === undefined)
    throw new HostError(
      "--client-credentials needs the client's secret (ELICIT_CLIENT_SECRET or --client-secret) or its private key (--client-key FILE).",
    );
  if (flags.clientKey === undefined) return { grant: { type: "client_credentials", ...scope }, ...client };
  const text = readFlagFile("--client-key", flags.clientKey);
  let privateKey: string | PrivateJwk;
  try {
    privateKey = text.trimStart().startsWith("{") ? (JSON.parse(text) as PrivateJwk) : text;
    clientKeyOf(privateKey);
  } catch (error) {
    const why = error instanceof TypeError ? error.message : "it is not JSON";
    throw new HostError(`--client-key ${JSON.stringify(flags.clientKey)} cannot sign: ${why}.`);
  }
  return { grant: { type: "client_credentials", privateKey, ...scope }, ...client };
}
