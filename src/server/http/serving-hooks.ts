// What an entry adds to the fetch handler's serving (createServing): serveHttp its address, the issuer
// metadata it fetched before listening and its fleet; a Durable Object that every request of its session
// reaches.
import type { AuthInfo } from "@modelcontextprotocol/server";
import type { IssuerMetadata } from "../auth/discovery.js";
import type { FleetSessions } from "../fleet/sessions.js";
import type { RequestIdMap } from "../fleet/session.js";
import type { KeyValueStore } from "../../store/types.js";

/** The fleet serveHttp joins: where sessions are recorded, and how a request reaches the member holding its session. */
export interface ServingFleet {
  sessions: FleetSessions;
  store: KeyValueStore;
  /** The ids map of an adopted session (fleet/request-ids.ts). */
  requestIds(): RequestIdMap;
  /** Passes a request to the member holding its session: its answer, or undefined when unreachable. */
  forward(request: Request, target: URL, body: unknown): Promise<Response | undefined>;
  /** Whether the request was already passed on once (it is then answered where it lands). */
  forwarded(request: Request): boolean;
  /** Runs what a request starts in the fleet's scope (its stream and token, for calls finished elsewhere). */
  scope<T>(request: Request, auth: AuthInfo | undefined, handle: () => Promise<T>): Promise<T>;
}

/** What serveHttp adds on Node: its address, the issuer metadata it fetched before listening, and its fleet. */
export interface ServingHooks {
  /** Name used in errors: createFetchHandler or serveHttp. */
  who: string;
  /** serveHttp: one process, where a kit's memory is where every retry comes back to (no warning). */
  oneInstance?: boolean;
  /** Every request naming a session reaches this handler (a Durable Object per session): an unknown session is gone, not elsewhere. */
  sessionsHeldHere?: boolean;
  /** Where the endpoint is served (serveHttp's listening address); else the first request's origin and `path`. */
  endpoint?: URL;
  issuerMetadata?: IssuerMetadata;
  fleet?: ServingFleet;
}
