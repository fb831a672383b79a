// The payment pages (app/elicit/[...path]/route.ts): the same handler as /mcp, which serves the URL
// kit's pages under /elicit/ (connect, sign-in, the hosted form).
export { GET, POST, DELETE } from "../../mcp/route.js";
