// The upload page's script (bundled into dist/web/url-file.js): the person picks files with the real
// <input type=file> or drops them on the zone, sees what was chosen (name, size) and sends with the
// confirm button; each file goes up as its own POST through XMLHttpRequest, whose upload events give the
// progress. The server checks everything again; its verdict is shown in the alert line.
import { shownName } from "../../files/names.js";
import { formatBytes } from "../../files/sink.js";
import type { FilePageData } from "../file.js";

const data = JSON.parse(document.getElementById("mcp-elicit-flow")!.textContent ?? "{}") as FilePageData;
const input = document.getElementById("file-input") as HTMLInputElement;
const zone = document.getElementById("drop-zone")!;
const preview = document.getElementById("file-preview")!;
const send = document.getElementById("file-send") as HTMLButtonElement;
const progress = document.getElementById("file-progress") as HTMLProgressElement;
const status = document.getElementById("file-status")!;
const alert = document.getElementById("file-error")!;

let chosen: File[] = [];
/** Files of this choice the server already has (a retry after a refused second file sends only the rest). */
const delivered = new Set<number>();

/** What the person chose, checked here for what can be told before sending (the server checks again). */
function choose(files: File[]): void {
  alert.textContent = "";
  status.textContent = "";
  if (files.length > data.count) {
    alert.textContent = `Choose at most ${data.count} file${data.count === 1 ? "" : "s"}.`;
    files = files.slice(0, data.count);
  }
  const problems = files.flatMap((f) =>
    f.size > data.maxBytes
      ? [`${shownName(f.name)} is ${formatBytes(f.size)}: larger than the limit of ${formatBytes(data.maxBytes)}.`]
      : f.size === 0
        ? [`${shownName(f.name)} is empty.`]
        : [],
  );
  chosen = problems.length ? [] : files;
  delivered.clear();
  if (problems.length) alert.textContent = problems.join(" ");
  // Names are set as text, never as HTML, and made inert: a bidi override cannot make "gnp.pdf" read as "fdp.png".
  preview.replaceChildren(
    ...chosen.map((f) => {
      const item = document.createElement("li");
      item.textContent = `${shownName(f.name)} (${formatBytes(f.size)})`;
      return item;
    }),
  );
  send.disabled = chosen.length === 0;
  if (chosen.length)
    status.textContent = `Ready to send ${chosen.length === 1 ? "1 file" : `${chosen.length} files`}: check it and press Send.`;
}

function upload(file: File, index: number, total: number, sentBefore: number, all: number): Promise<{ next?: string }> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", data.post);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.setRequestHeader("X-CSRF-Token", data.csrf);
    xhr.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
    xhr.setRequestHeader("X-File-Index", String(index));
    xhr.setRequestHeader("X-File-Total", String(total));
    xhr.upload.onprogress = (event) => {
      const done = sentBefore + (event.lengthComputable ? event.loaded : 0);
      progress.value = Math.round((done / all) * 100);
    };
    xhr.onload = () => {
      let body: { next?: unknown; error?: unknown } = {};
      try {
        body = JSON.parse(xhr.responseText) as typeof body;
      } catch {
        // not JSON: the status says enough
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(typeof body.next === "string" ? { next: body.next } : {});
      else reject(new Error(typeof body.error === "string" ? body.error : `The server refused the file (HTTP ${xhr.status}).`));
    };
    xhr.onerror = () => reject(new Error("The upload was interrupted; nothing was kept. Try again."));
    xhr.send(file);
  });
}

async function sendAll(): Promise<void> {
  if (!chosen.length) return;
  send.disabled = true;
  input.disabled = true;
  alert.textContent = "";
  progress.hidden = false;
  progress.value = 0;
  const all = chosen.reduce((n, f) => n + f.size, 0) || 1;
  let sent = 0;
  try {
    let next: string | undefined;
    for (const [index, file] of chosen.entries()) {
      if (delivered.has(index)) {
        sent += file.size;
        continue;
      }
      status.textContent = `Sending ${shownName(file.name)}…`;
      ({ next } = await upload(file, index, chosen.length, sent, all));
      delivered.add(index);
      sent += file.size;
    }
    progress.value = 100;
    status.textContent = "Sent.";
    if (next) location.assign(next);
  } catch (error) {
    alert.textContent = (error as Error).message;
    status.textContent = "";
    progress.hidden = true;
    send.disabled = false;
    input.disabled = false;
  }
}

input.addEventListener("change", () => choose([...(input.files ?? [])]));
send.addEventListener("click", () => void sendAll());
zone.addEventListener("dragover", (event) => {
  event.preventDefault();
  zone.classList.add("dragging");
});
zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
zone.addEventListener("drop", (event) => {
  event.preventDefault();
  zone.classList.remove("dragging");
  if (input.disabled || !event.dataTransfer) return;
  // Not copied into the picker: its native label would show the name as the browser renders it (a bidi
  // override obeyed); the preview list, whose names are made inert, is what says what will be sent.
  choose([...event.dataTransfer.files]);
});
