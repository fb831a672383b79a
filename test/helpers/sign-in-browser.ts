// A stand-in for the system browser, for CLI tests: `elicit` starts it through the BROWSER
// environment variable (`node --import tsx sign-in-browser.ts URL`). What it does is set by
// SIGN_IN_BROWSER:
//   user:NAME       sign in as NAME on the local OpenID provider's pages (signInAs)
//   error:CODE      come back to the client's redirect address at once with error=CODE
//   forged-state    first come back with a code and a state that is not the client's (as any web
//                   page could), which must be answered 400, then sign in as demo
import { signInAs } from "./sign-in-agent.js";

const url = new URL(process.argv[2]!);
const mode = process.env.SIGN_IN_BROWSER ?? "user:demo";
const back = async (query: Record<string, string>) => {
  const to = new URL(url.searchParams.get("redirect_uri")!);
  for (const [k, v] of Object.entries(query)) to.searchParams.set(k, v);
  const response = await fetch(to);
  await response.body?.cancel();
  return response.status;
};
const state = url.searchParams.get("state") ?? "";

if (mode.startsWith("user:")) await signInAs(url, mode.slice(5));
else if (mode.startsWith("error:"))
  await back({ state, error: mode.slice(6), error_description: "\u001b[31mrefused by the server's own words" });
else if (mode === "forged-state") {
  const status = await back({ state: "not-the-clients-state", code: "a-code-from-elsewhere" });
  if (status !== 400) throw new Error(`the forged redirect was answered ${status}, not 400`);
  await signInAs(url, "demo");
} else throw new Error(`unknown SIGN_IN_BROWSER mode ${mode}`);
