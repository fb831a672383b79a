// A person at the URL kit's hosted form without a browser: an HTTP client that opens the link the
// client was given (redirects followed, the page's cookie kept), reads the form page's data block
// (its CSRF token and where to post) and posts the answer from the page's own origin, as the page's
// script does. The Chromium tests (test/server/url/e2e.test.ts) do the same in a real browser.

/** The data block of the hosted form page (src/server/url/pages/form.ts). */
interface FormPageData {
  csrf: string;
  post: string;
  request: { message: string; requestedSchema: { properties?: Record<string, unknown> } };
}

export interface HostedFormResult {
  /** The page's message (what the tool asked). */
  message: string;
  /** The field names the form asked for. */
  fields: string[];
  /** The POST's status and the address the page goes on to (its done page). */
  status: number;
  next?: string;
}

/** Opens `link` and answers its hosted form with `content` (accept). Fails naming the page when it is not a form. */
export async function answerHostedForm(link: string, content: Record<string, unknown>): Promise<HostedFormResult> {
  const cookies = new Map<string, string>();
  const keep = (response: Response) => {
    for (const line of response.headers.getSetCookie()) {
      const pair = line.split(";")[0]!;
      const eq = pair.indexOf("=");
      cookies.set(pair.slice(0, eq).trim(), pair.slice(eq + 1).trim());
    }
  };
  const cookie = () => [...cookies].map(([k, v]) => `${k}=${v}`).join("; ");
  let at = new URL(link);
  let page: Response | undefined;
  for (let hops = 0; hops < 5; hops++) {
    page = await fetch(at, { redirect: "manual", headers: { cookie: cookie() } });
    keep(page);
    const location = page.headers.get("location");
    if (page.status < 300 || page.status >= 400 || !location) break;
    await page.body?.cancel();
    at = new URL(location, at);
  }
  const html = await page!.text();
  const block = /<script type="application\/json" id="mcp-elicit-flow">([\s\S]*?)<\/script>/.exec(html);
  if (!block) throw new Error(`${at.pathname} (${page!.status}) is not a hosted form page:\n${html.slice(0, 2000)}`);
  const data = JSON.parse(block[1]!) as FormPageData;
  const posted = await fetch(new URL(data.post, at), {
    method: "POST",
    headers: { "content-type": "application/json", origin: at.origin, cookie: cookie() },
    body: JSON.stringify({ csrf: data.csrf, answer: { action: "accept", content } }),
  });
  const reply = (await posted.json()) as { next?: string; error?: string };
  if (!posted.ok) throw new Error(`the hosted form refused the answer (${posted.status}): ${reply.error ?? JSON.stringify(reply)}`);
  return {
    message: data.request.message,
    fields: Object.keys(data.request.requestedSchema.properties ?? {}),
    status: posted.status,
    ...(reply.next ? { next: reply.next } : {}),
  };
}
