// How a tool that needs URL mode ends when its client cannot do it: a tool error naming what is needed,
// or (the kit's `fallback: "link"`) a result with the connect link for the person to open.
import { ElicitError } from "../../schema/errors.js";

/** The client cannot be sent a URL-mode elicitation (2025-06-18, or no elicitation.url capability). */
export class UrlModeUnavailableError extends ElicitError {
  constructor(readonly request: string) {
    super(
      "url-mode-unavailable",
      `This tool needs a client that supports URL-mode elicitation (2025-11-25 or later, capability elicitation.url) for "${request}".`,
    );
  }

  protected override details() {
    return { error: "input_unavailable", capability: "elicitation.url", request: this.request };
  }
}

/** The fallback for such a client: the link goes to the person as text; calling the tool again finds the flow. */
export class UrlLinkResult extends ElicitError {
  constructor(
    readonly request: string,
    readonly url: string,
    readonly expiresAt: number,
  ) {
    super(
      "url-required",
      `${request}\n\nThis client cannot open links for the server, so open this one yourself (it is for you only, and expires at ${new Date(expiresAt).toISOString()}):\n${url}\n\nThen call this tool again.`,
    );
  }

  protected override details() {
    return { error: "url_required", request: this.request, url: this.url, expiresAt: new Date(this.expiresAt).toISOString() };
  }
}
