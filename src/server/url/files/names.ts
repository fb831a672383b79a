// STUB until the file-sinks branch is merged (it owns this file): a person's file name made inert for showing.
export function shownName(name: string): string {
  const cleaned = String(name)
    .replace(/[\u0000-\u001f\u007f-\u009f\u061c\u200b-\u200f\u202a-\u202e\u2066-\u2069\ufeff]/g, "\ufffd")
    .replace(/[/\\]/g, "\u2215")
    .trim();
  return (cleaned || "file").slice(0, 200);
}
