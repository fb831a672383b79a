// The hosted form page's script (bundled into dist/web/url-form.js; elements/form.js defines the form):
// reads the flow from the page's JSON data block, shows <mcp-elicit-form>, and POSTs the answer with the
// page's CSRF token. The server validates again; its verdict is shown in the page's alert line.
import type { FormAnswer } from "../../../../common/form-answer.js";
import type { FormPageData } from "../form.js";

const data = JSON.parse(document.getElementById("mcp-elicit-flow")!.textContent ?? "{}") as FormPageData;
const root = document.getElementById("form-root")!;
const alert = document.getElementById("form-error")!;

function show(): void {
  const form = document.createElement("mcp-elicit-form");
  form.request = data.request;
  form.addEventListener("mcp-elicit-answer", (event) => void send((event as CustomEvent<FormAnswer>).detail));
  root.replaceChildren(form);
}

async function send(answer: FormAnswer): Promise<void> {
  alert.textContent = "";
  let problem: string;
  try {
    const response = await fetch(data.post, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      credentials: "same-origin",
      body: JSON.stringify({ csrf: data.csrf, answer }),
    });
    const body = (await response.json().catch(() => ({}))) as { next?: unknown; error?: unknown; errors?: Array<{ message?: unknown }> };
    if (response.ok && typeof body.next === "string") {
      location.assign(body.next);
      return;
    }
    const details = (body.errors ?? []).map((e) => (typeof e.message === "string" ? e.message : "")).filter(Boolean);
    problem = [typeof body.error === "string" ? body.error : `The server refused the answer (HTTP ${response.status}).`, ...details].join(
      " ",
    );
  } catch {
    problem = "Could not reach the server; nothing was sent. Try again.";
  }
  // Shown afresh with the reason, so the person can answer again.
  show();
  alert.textContent = problem;
}

show();
