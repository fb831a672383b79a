// mcp-elicit/web: the browser renderer of the client's UI contract. webUI() serves a local page
// (on loopback, behind a random secret) that shows each request with the custom elements of
// mcp-elicit/web/elements; elementsBundlePath() is that bundle, for hosts that serve the elements themselves.
import "../ui/error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
import { bundleDir } from "../ui/web/server/assets.js";

export {
  webUI,
  DEFAULT_DISCONNECT_GRACE_MS,
  type WebUI,
  type WebUIOptions,
  type WebOwnForm,
  type PendingSummary,
} from "../ui/web/server/web-ui.js";
export { DEFAULT_PAGE_SERVER_LIMITS, type PageServerLimits } from "../common/http-limits.js";

/** The absolute path of the built elements bundle (dist/web/elements.js): one self-contained ES module that defines the elements. */
export const elementsBundlePath = (): string => bundleDir() + "elements.js";
