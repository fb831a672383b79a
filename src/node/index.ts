// mcp-elicit/node: serving on Node. `serveHttp` listens on a port with the same Web-standard handler
// `createFetchHandler` (mcp-elicit/server) gives Workers, Deno and Bun, and adds what only a Node
// process has: the listening socket, `admit` on Node's request, and a fleet of processes sharing a store.
import "../server/base/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
export {
  serveHttp,
  DEFAULT_BACKLOG,
  DEFAULT_KEEP_ALIVE_TIMEOUT_MS,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_SESSION_IDLE_MS,
  type HttpServerHandle,
  type ServeHttpOptions,
  type ServerFactory,
} from "../server/http/serve.js";
