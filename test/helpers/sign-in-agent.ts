// A user agent for sign-in tests that need no browser: it opens an authorization URL the way a
// browser would (redirects followed, cookies kept), fills the local OpenID provider's sign-in and
// consent forms as a person would, and follows the final redirect to the client's loopback address.
// The Chromium tests (test/cli/oauth-login.test.ts) do the same with a real browser.

/** Cookies per origin, as Set-Cookie headers say. */
class Jar {
  private readonly byOrigin = new Map<string, Map<string, string>>();
  take(url: URL, response: Response): void {
    const jar = this.byOrigin.get(url.origin) ?? new Map<string, string>();
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const eq = pair.indexOf("=");
      const value = pair.slice(eq + 1).trim();
      if (value === "") jar.delete(pair.slice(0, eq).trim());
      else jar.set(pair.slice(0, eq).trim(), value);
    }
    this.byOrigin.set(url.origin, jar);
  }
  header(url: URL): string {
    return [...(this.byOrigin.get(url.origin) ?? [])].map(([k, v]) => `${k}=${v}`).join("; ");
  }
}

export interface AgentResult {
  /** The loopback address the agent ended at (with its query), when it got there. */
  callback?: URL;
  /** Its HTTP status (200 when the client took the sign-in). */
  status?: number;
}

/**
 * Opens `start` and signs in as `user`; consents to what is asked. Stops at the first address on
 * 127.0.0.1 that is not the provider's own (the client's loopback redirect), after requesting it.
 */
export async function signInAs(start: string | URL, user: string, password = user): Promise<AgentResult> {
  const jar = new Jar();
  const provider = new URL(start).origin;
  const request = async (url: URL, body?: URLSearchParams) => {
    const response = await fetch(url, {
      method: body ? "POST" : "GET",
      redirect: "manual",
      headers: { cookie: jar.header(url), ...(body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body,
    });
    jar.take(url, response);
    return response;
  };
  let url = new URL(start);
  let response = await request(url);
  for (let hop = 0; hop < 25; hop++) {
    const location = response.headers.get("location");
    if (location) {
      url = new URL(location, url);
      response = await request(url);
      if (url.origin !== provider) {
        await response.body?.cancel();
        return { callback: url, status: response.status };
      }
      continue;
    }
    const html = await response.text();
    const actions = [...html.matchAll(/<form[^>]*action="([^"]+)"/g)].map((m) => m[1]!.replace(/&#47;/g, "/"));
    const login = actions.find((a) => a.endsWith("/login"));
    const confirm = actions.find((a) => a.endsWith("/confirm"));
    if (login) response = await request((url = new URL(login, url)), new URLSearchParams({ username: user, password }));
    else if (confirm) response = await request((url = new URL(confirm, url)), new URLSearchParams());
    else throw new Error(`the sign-in stopped at HTTP ${response.status} with neither a sign-in nor a consent form`);
  }
  throw new Error("the sign-in took more than 25 steps");
}
