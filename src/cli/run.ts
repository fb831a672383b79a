// mcp-elicit/cli: the `elicit` command, run with process.argv when imported. The bin is mcp-elicit-cli's,
// which brings the packages only the command uses (optional peers of mcp-elicit); without them this
// says which are missing, instead of failing on the first import deep inside the command.
import "./error-codes.js"; // the codes of the errors this entry can throw join ErrorCode for its users
import { loadWithPeers, MissingPeerError } from "../common/optional-peers.js";

try {
  await loadWithPeers("The elicit command", () => import("./main.js"), "or use the package that brings them: npx mcp-elicit-cli --help");
} catch (error) {
  if (!(error instanceof MissingPeerError)) throw error;
  process.stderr.write(`elicit: ${error.message}\n`);
  process.exitCode = 2;
}
