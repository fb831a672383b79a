// A consent the person already gave, kept for the rest of the session (elicit demo's terminal and web UIs).
import { sanitizeText } from "../common/sanitize.js";
import type { ElicitationUI } from "../client/ui.js";

/**
 * On 2026-07-28 the server asks again, with the same link, while its page is not finished (each retry
 * waits a bounded time). The person already said yes and has the page open: asking again would offer
 * "No" while they type their card. A link consented to before is accepted again, and the wait told.
 */
export function keepConsent<U extends ElicitationUI>(ui: U): U {
  const consented = new Set<string>();
  const url: ElicitationUI["url"] = async (request, context) => {
    const address = request.analysis.url;
    if (consented.has(address)) {
      const host = sanitizeText(request.analysis.host ?? address, { maxLength: 200, multiline: false });
      ui.notice(`asked again for the page at ${host} you already opened: it stays open, finish it there.`, context);
      return "accept";
    }
    const answer = await ui.url(request, context);
    if (answer === "accept") consented.add(address);
    return answer;
  };
  return { ...ui, url };
}
