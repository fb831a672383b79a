// The layer map of src/, checked by dependency-cruiser in `npm run lint` (docs/design/layers.md explains it).
// Imports point down only: schema <- common <- store <- client / server <- ui <- cli. A folder of src/ that is not
// in LAYERS fails test/lint/layers.test.ts, so a new folder has to be placed before it is checked.

import { readFileSync } from "node:fs";

/** Each folder of src/ and the folders of ours it may import besides itself. */
const LAYERS = {
  schema: [],
  common: ["schema"],
  store: ["schema", "common"],
  // client and server stand side by side: neither imports the other.
  client: ["schema", "common", "store"],
  server: ["schema", "common", "store"],
  // Entry points that sit on one of those layers.
  openai: ["schema", "common", "client"],
  // Serving on Node (serveHttp), and what a Cloudflare Worker imports (the stores where Cloudflare keeps
  // state, the Durable Object glue), over the server side.
  node: ["schema", "common", "store", "server"],
  cloudflare: ["schema", "common", "store", "server"],
  oidc: ["schema", "common", "store", "server"],
  // The servers the package ships (travel demo, conformance): built on the server side and the OpenID provider.
  servers: ["schema", "common", "store", "server", "oidc"],
  ui: ["schema", "common", "store", "client", "server"],
  terminal: ["schema", "common", "client", "ui"],
  scripted: ["schema", "common", "client", "ui"],
  web: ["schema", "common", "client", "ui"],
  cli: [
    "schema",
    "common",
    "store",
    "client",
    "server",
    "ui",
    "servers",
    "terminal",
    "scripted",
    "web",
    "openai",
    "oidc",
    "node",
    "cloudflare",
  ],
};

/**
 * The server wing's floor plan (docs/design/layers.md): each room of src/server/ and the rooms it may import besides
 * itself. The ground floor (base, transport, auth, fleet, url) serves everything; inputs/ holds the ports each
 * ctx input is written against; live/ (2025 eras) and rounds/ (2026-07-28) are the ways of asking; tasks/ runs on
 * rounds; apps/ answers questions in the form app on rounds; kit/ puts them together, and http/ serves any kit. Only src/server/index.ts sits outside a room.
 */
const SERVER_ROOMS = {
  base: [],
  transport: ["base"],
  auth: ["base"],
  fleet: ["base"],
  url: ["base", "auth"],
  inputs: ["base", "auth", "url"],
  live: ["base", "auth", "url", "inputs"],
  rounds: ["base", "auth", "url", "inputs"],
  tasks: ["base", "auth", "url", "inputs", "rounds"],
  // Questions answered in the kit's form app (MCP Apps), on the rounds' sealed state and call ledger.
  apps: ["base", "auth", "url", "inputs", "rounds"],
  kit: ["base", "auth", "fleet", "url", "inputs", "live", "rounds", "tasks", "apps"],
  http: ["base", "transport", "auth", "fleet", "url"],
};

const roomRules = Object.entries(SERVER_ROOMS).map(([room, below]) => ({
  name: `room-${room}`,
  comment: `src/server/${room}/ may import only ${below.length ? below.map((b) => `src/server/${b}/`).join(", ") + " and " : ""}itself in the server wing`,
  severity: "error",
  from: { path: `^src/server/${room}/` },
  to: { path: "^src/server/", pathNot: `^src/server/(${[room, ...below].join("|")})/` },
}));

/**
 * The source of each entry point package.json "exports" names (its "types" file, back in src/), except the CLI's,
 * which ships the demo servers.
 */
const LIBRARY_ENTRIES = Object.values(JSON.parse(readFileSync(new URL("package.json", import.meta.url), "utf8")).exports)
  .filter((entry) => typeof entry === "object")
  .map((entry) => entry.types.replace(/^\.\/dist\//, "src/").replace(/\.d\.ts$/, ".ts"))
  .filter((source) => source !== "src/cli/run.ts");

const layerRules = Object.entries(LAYERS).map(([layer, below]) => ({
  name: `layer-${layer}`,
  comment: `src/${layer}/ may import only ${below.length ? below.map((b) => `src/${b}/`).join(", ") + " and " : ""}itself`,
  severity: "error",
  from: { path: `^src/${layer}/` },
  to: { path: "^src/", pathNot: `^src/(${[layer, ...below].join("|")})/` },
}));

export default {
  forbidden: [
    {
      name: "no-circular",
      comment: "A module must not reach itself through its imports: move the shared piece into a module of its own.",
      severity: "error",
      from: {},
      to: { circular: true },
    },
    ...layerRules,
    ...roomRules,
    {
      name: "server-rooms-only",
      comment: "Every module of src/server/ but its index.ts sits in a room of SERVER_ROOMS, so the floor plan checks it.",
      severity: "error",
      from: { path: "^src/server/", pathNot: `^src/server/(index\\.ts$|(${Object.keys(SERVER_ROOMS).join("|")})/)` },
      to: {},
    },
    {
      name: "no-server-to-ui",
      comment: "The server side serves no renderer code: what both need lives in src/common/ or below.",
      severity: "error",
      from: { path: "^src/server/" },
      to: { path: "^src/ui/" },
    },
    {
      name: "entries-no-demo",
      comment: "A library entry point must not load demo code from src/servers/, even through other modules.",
      severity: "error",
      from: { path: `^(${LIBRARY_ENTRIES.map((source) => source.replaceAll(".", "\\.")).join("|")})$` },
      to: { path: "^src/servers/", reachable: true },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    includeOnly: "^src/",
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
    },
  },
};
