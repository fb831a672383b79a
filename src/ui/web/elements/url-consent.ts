// <mcp-elicit-url-consent>: consent to open a URL-mode elicitation's link, then the wait while the person
// finishes there. The URL is analysed in the browser (analyzeUrl, the client's own analysis) and shown in
// full, with the registrable domain highlighted and an internationalized name in both forms. It is never
// fetched or previewed: it opens in a new tab, without opener or referrer, only after explicit consent.
import { html, LitElement, nothing, type PropertyValues, type TemplateResult } from "lit";
import { MAX_LONG_TEXT_LENGTH } from "../../../common/sanitize.js";
import { analyzeUrl, type UrlAnalysis } from "../../../client/url-safety/analyze.js";
import { emitAnswer } from "./answer-event.js";
import { domainToUnicode } from "./domain-to-unicode.js";
import { inert, inertLine } from "./inert.js";
import { messageText } from "./long-text.js";
import { theme } from "./theme.js";
import type { McpElicitUrlConsentElement, UrlConsentAnswer, UrlConsentPhase, UrlConsentRequest, UrlWaitAnswer } from "./types.js";

export class McpElicitUrlConsent extends LitElement implements McpElicitUrlConsentElement {
  static override styles = theme;
  static override shadowRootOptions = { ...LitElement.shadowRootOptions, delegatesFocus: true };
  static override properties = {
    request: { attribute: false },
    phase: {},
    waitAfterOpen: { attribute: false },
    openLink: { attribute: false },
    _consented: { state: true },
    _unfolded: { state: true },
  };

  declare request: UrlConsentRequest | undefined;
  /** "consent" (the default), "waiting" (after Open, or set by the host), "done" (see completed()). */
  declare phase: UrlConsentPhase;
  /** After Open, show the waiting phase (default true); false: the element is done once the link opened. */
  declare waitAfterOpen: boolean;
  /** Opens the link instead of window.open: where the page cannot open tabs itself (an MCP App asks its host). */
  declare openLink: ((url: string) => void) | undefined;
  declare _consented: boolean;
  /** The person unfolded a long message. */
  declare _unfolded: boolean;

  private analysis: UrlAnalysis | undefined;
  private outcome = "";

  constructor() {
    super();
    this.request = undefined;
    this.phase = "consent";
    this.waitAfterOpen = true;
    this.openLink = undefined;
    this._consented = false;
    this._unfolded = false;
  }

  /** Shows that the flow finished (the server's completion notification came). */
  completed(): void {
    this.outcome = `Done: ${this.serverName} has your answer.`;
    this.phase = "done";
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has("request")) {
      this.analysis = this.request === undefined ? undefined : analyzeUrl(typeof this.request?.url === "string" ? this.request.url : "");
      this._consented = false;
      this._unfolded = false;
      this.outcome = "";
    }
    if (changed.has("phase") && this.phase === "done" && !this.outcome) this.outcome = `Done: ${this.serverName} has your answer.`;
  }

  private get serverName(): string {
    return inertLine(this.request?.server?.name) || "the server";
  }

  private decide(action: "decline" | "cancel"): void {
    this.outcome = action === "decline" ? "Declined: the link was not opened." : "Cancelled: the link was not opened.";
    this.phase = "done";
    emitAnswer<UrlConsentAnswer>(this, { action });
  }

  private open(): void {
    const a = this.analysis;
    if (!a?.ok || !this._consented) return;
    // The normalized href: exactly the address shown. noopener + noreferrer: the page gets no handle on
    // this one and learns nothing of where the person came from.
    if (this.openLink) this.openLink(a.url);
    else window.open(a.url, "_blank", "noopener,noreferrer");
    this.outcome = `Opened ${a.url} in a new tab.`;
    this.phase = this.waitAfterOpen === false ? "done" : "waiting";
    emitAnswer<UrlConsentAnswer>(this, { action: "accept" });
  }

  private waitDecision(action: "retry" | "cancel"): void {
    if (action === "cancel") {
      this.outcome = "Cancelled: stopped waiting for the link's page.";
      this.phase = "done";
    }
    emitAnswer<UrlWaitAnswer>(this, { action });
  }

  protected override render(): TemplateResult | typeof nothing {
    const r = this.request;
    const a = this.analysis;
    if (r === undefined || a === undefined) return nothing;
    if (this.phase === "done") return html`<p class="status" role="status" part="status">${this.outcome}</p>`;
    if (this.phase === "waiting") return this.renderWaiting(a);
    const heading = html`<h2 part="heading">Link from ${this.serverName}</h2>
      ${messageText(inert(r.message, MAX_LONG_TEXT_LENGTH), this._unfolded, () => (this._unfolded = !this._unfolded))}`;
    const decline = html`<button type="button" part="button decline" @click=${() => this.decide("decline")}>Decline</button>`;
    const cancel = html`<button type="button" part="button cancel" @click=${() => this.decide("cancel")}>Cancel</button>`;
    if (!a.ok) {
      return html`${heading}
        <dl part="address">
          <dt>Address</dt>
          <dd><code part="url">${inertLine(a.url)}</code></dd>
        </dl>
        <p class="warning" role="alert" part="warning">Refused: ${inertLine(a.refusal ?? "this address cannot be opened.")}</p>
        <div class="actions" part="actions">${decline}${cancel}</div>`;
    }
    return html`${heading} ${this.renderAddress(a)}
      ${
        a.warnings.length
          ? html`<ul class="warnings" aria-label="Warnings">
              ${a.warnings.map((w) => html`<li class="warning" part="warning">Warning: ${inertLine(w.message)}</li>`)}
            </ul>`
          : nothing
      }
      <p class="muted">The link opens in a new tab. Nothing is loaded from it before you open it.</p>
      <label class="option" part="consent"
        ><input
          type="checkbox"
          .checked=${this._consented}
          @change=${(e: Event) => (this._consented = (e.target as HTMLInputElement).checked)}
        />I checked the address and want to open it</label
      >
      <div class="actions" part="actions">
        <button type="button" class="primary" part="button primary open" ?disabled=${!this._consented} @click=${this.open}>Open link</button
        >${decline}${cancel}
      </div>`;
  }

  /** The full address; the host with its registrable domain marked; an internationalized name both ways. */
  private renderAddress(a: UrlAnalysis): TemplateResult {
    const port = a.port ? `:${inertLine(a.port)}` : "";
    const parts = a.hostParts;
    const reads = a.unicodeHost && a.unicodeHost !== a.host ? inertLine(a.unicodeHost) : "";
    const unicodeDomain = a.registrableDomain?.includes("xn--") ? inertLine(domainToUnicode(a.registrableDomain)) : "";
    return html`<dl part="address">
      <dt>Address</dt>
      <dd><code part="url">${inertLine(a.url)}</code></dd>
      <dt>Host</dt>
      <dd>
        <code part="host"
          >${
            parts ? html`${inertLine(parts.before)}<mark part="domain">${inertLine(parts.registrable)}</mark>` : inertLine(a.host)
          }${port}</code
        >
      </dd>
      ${
        reads
          ? html`<dt>Reads as</dt>
              <dd>
                <code part="unicode-host">${reads}</code> (an internationalized name: what opens is <code>${inertLine(a.host)}</code>)
              </dd>`
          : nothing
      }
      ${
        a.registrableDomain
          ? html`<dt>Belongs to</dt>
              <dd><mark part="domain">${inertLine(a.registrableDomain)}</mark>${unicodeDomain ? ` (reads as ${unicodeDomain})` : ""}</dd>`
          : nothing
      }
    </dl>`;
  }

  private renderWaiting(a: UrlAnalysis): TemplateResult {
    const host = a.unicodeHost && a.unicodeHost !== a.host ? `${inertLine(a.unicodeHost)} (${inertLine(a.host)})` : inertLine(a.host);
    return html`<h2 part="heading">Waiting for ${this.serverName}</h2>
      <p role="status" part="status">Finish in the page that opened at <code part="host">${host}</code>, then come back here.</p>
      <div class="actions" part="actions">
        <button type="button" class="primary" part="button primary retry" @click=${() => this.waitDecision("retry")}>Retry</button>
        <button type="button" part="button cancel" @click=${() => this.waitDecision("cancel")}>Cancel</button>
      </div>`;
  }
}
