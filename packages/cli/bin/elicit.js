#!/usr/bin/env node
// The elicit command. Its code is mcp-elicit's own (mcp-elicit/cli, this same version); this package adds
// the packages only the command uses, so that `npm i mcp-elicit` installs none of them.
import "mcp-elicit/cli";
