// The itinerary as Markdown, and writing it into a client's root without ever leaving it.
//
// A root is only a `file://` URI the client handed us; the server must not write outside it, even
// when the name is hostile ("../x", "/etc/x") or the directory holds symlinks pointing elsewhere.
// So: the name must be relative with no "." or ".." segments; every directory on the way is
// resolved with realpath and must stay under the root's realpath; the target itself must not be a
// symlink; the bytes go to a fresh temporary file opened O_CREAT|O_EXCL|O_NOFOLLOW in the checked
// directory, which is then renamed over the target (rename replaces a link, never follows it).
import { constants } from "node:fs";
import { lstat, mkdir, open, realpath, rename, rm, stat } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { isAbsolute, join, sep } from "node:path";
import { fileURLToPath } from "node:url";
import type { Booking } from "./bookings.js";
import { dateRange, describeLeg, hoursMinutes, usd, type Leg } from "./flights.js";
import { ElicitError } from "../../schema/errors.js";

export type UnsafeWriteReason =
  | "root-not-file-uri"
  | "root-unusable"
  | "name-invalid"
  | "name-absolute"
  | "name-dot-segment"
  | "outside-root"
  | "target-symlink"
  | "target-not-file";

/** A write refused to keep the file inside the root; `reason` is stable, the message says what and why. */
export class UnsafeWriteError extends ElicitError {
  constructor(
    readonly reason: UnsafeWriteReason,
    message: string,
  ) {
    super("unsafe-write", message);
  }
}

/** The local directory a `file://` root names; anything else is refused. */
export function rootDirectory(rootUri: string): string {
  let url: URL;
  try {
    url = new URL(rootUri);
  } catch {
    throw new UnsafeWriteError("root-not-file-uri", `The root "${rootUri}" is not a URI; roots must be file:// URIs.`);
  }
  if (url.protocol !== "file:") {
    throw new UnsafeWriteError(
      "root-not-file-uri",
      `The root "${rootUri}" is a ${url.protocol.replace(/:$/, "")}: URI; only file:// roots name a directory this server can write to.`,
    );
  }
  try {
    return fileURLToPath(url);
  } catch (error) {
    throw new UnsafeWriteError("root-not-file-uri", `The root "${rootUri}" is not a local file:// URI: ${(error as Error).message}.`);
  }
}

const within = (root: string, path: string) => path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);

/** The segments of a relative name, or a refusal saying which rule it breaks. */
function segmentsOf(name: string): string[] {
  if (typeof name !== "string" || name.length === 0) throw new UnsafeWriteError("name-invalid", "The file name is empty.");
  if (name.includes("\0")) throw new UnsafeWriteError("name-invalid", "The file name contains a NUL character.");
  if (isAbsolute(name) || name.startsWith("/") || name.startsWith("\\") || /^[A-Za-z]:/.test(name) || name.startsWith("~")) {
    throw new UnsafeWriteError("name-absolute", `The file name "${name}" is absolute; it must be relative to the root.`);
  }
  if (name.includes("\\"))
    throw new UnsafeWriteError("name-invalid", `The file name "${name}" contains a backslash; use "/" between directories.`);
  const parts = name.split("/");
  if (parts.some((p) => p === ".."))
    throw new UnsafeWriteError("name-dot-segment", `The file name "${name}" contains "..", which could leave the root.`);
  if (parts.some((p) => p === "." || p === ""))
    throw new UnsafeWriteError("name-invalid", `The file name "${name}" has an empty or "." segment.`);
  return parts;
}

async function lstatOrUndefined(path: string) {
  try {
    return await lstat(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

export interface WrittenFile {
  /** Where the file is, resolved (no symlinks). */
  path: string;
  bytes: number;
}

/**
 * Writes `content` at `name` (relative, "/"-separated) inside the root directory `rootUri`,
 * creating missing directories under it; replaces an existing regular file. Throws UnsafeWriteError
 * for anything that could land outside the root.
 */
export async function writeInRoot(rootUri: string, name: string, content: string): Promise<WrittenFile> {
  const parts = segmentsOf(name);
  const rootPath = rootDirectory(rootUri);
  let root: string;
  try {
    root = await realpath(rootPath);
    if (!(await stat(root)).isDirectory()) throw new Error("not a directory");
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code === "ENOENT" ? "does not exist" : (error as Error).message;
    throw new UnsafeWriteError("root-unusable", `The root ${rootPath} cannot be written to: ${why}.`);
  }

  // Walk down, resolving each directory so a symlink that leads out is caught where it is.
  let dir = root;
  for (const [i, part] of parts.slice(0, -1).entries()) {
    const next = join(dir, part);
    const shown = parts.slice(0, i + 1).join("/");
    const info = await lstatOrUndefined(next);
    if (!info) {
      await mkdir(next, { mode: 0o755 });
      dir = next;
      continue;
    }
    const real = await realpath(next);
    if (!within(root, real)) {
      throw new UnsafeWriteError(
        "outside-root",
        `"${shown}" is a symlink that leads outside the root (to ${real}); refusing to write through it.`,
      );
    }
    if (!(await stat(real)).isDirectory())
      throw new UnsafeWriteError("name-invalid", `"${shown}" exists in the root and is not a directory.`);
    dir = real;
  }

  const file = parts.at(-1)!;
  const target = join(dir, file);
  const existing = await lstatOrUndefined(target);
  if (existing?.isSymbolicLink()) {
    throw new UnsafeWriteError(
      "target-symlink",
      `"${name}" is a symlink in the root; refusing to write through it (it could point anywhere).`,
    );
  }
  if (existing && !existing.isFile())
    throw new UnsafeWriteError("target-not-file", `"${name}" exists in the root and is not a regular file.`);

  const temp = join(dir, `.${file}.${randomBytes(6).toString("hex")}.tmp`);
  const handle = await open(temp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o644);
  const data = Buffer.from(content, "utf8");
  try {
    await handle.writeFile(data);
  } finally {
    await handle.close();
  }
  try {
    // The directory could have been swapped for a link while we wrote; check again before the rename.
    if (!within(root, await realpath(dir)))
      throw new UnsafeWriteError("outside-root", `The directory of "${name}" was moved outside the root while writing; nothing was saved.`);
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { path: target, bytes: data.length };
}

/** Server text going into Markdown: one line, no markup that could hide or link things. */
function md(text: string): string {
  return text.replace(/[\r\n]+/g, " ").replace(/[\\`*_[\]<>#|]/g, (c) => `\\${c}`);
}

function legLines(title: string, leg: Leg): string[] {
  return [
    `### ${title}: ${leg.from} → ${leg.to}, ${leg.depart.slice(0, 10)}`,
    "",
    `${describeLeg(leg)}`,
    "",
    "| flight | from | departs | to | arrives |",
    "| --- | --- | --- | --- | --- |",
    ...leg.segments.map(
      (s) => `| ${s.flightNumber} | ${s.from} | ${s.depart.replace("T", " ")} | ${s.to} | ${s.arrive.replace("T", " ")} |`,
    ),
    ...(leg.layovers.length ? ["", `Layovers: ${leg.layovers.map((l) => `${l.airport} ${hoursMinutes(l.minutes)}`).join(", ")}`] : []),
    "",
  ];
}

/** The booking as a Markdown itinerary. */
export function itineraryMarkdown(b: Booking): string {
  const f = b.flight;
  return [
    `# ${md(b.city)} trip, ${dateRange(b.departDate, b.returnDate)} — booking ${b.reference}`,
    "",
    `- Traveler: ${md(b.traveler.fullName)} (${md(b.traveler.email)}, ${md(b.traveler.phone)})`,
    `- Booked: ${b.createdAt}`,
    `- Total: ${usd(b.price.totalUsd)} (flights ${usd(b.price.flightsUsd)} + hotel ${usd(b.price.hotelUsd)}${b.price.insuranceUsd ? ` + travel insurance ${usd(b.price.insuranceUsd)}` : ""})`,
    "",
    `## Flights: ${f.airline}, ${f.cabin} (${f.id})`,
    "",
    `Seat preference: ${b.seatPreference ?? "none given"}`,
    "",
    ...legLines("Outbound", f.outbound),
    ...legLines("Return", f.inbound),
    `## Hotel: ${b.hotel.name}`,
    "",
    `- ${b.hotel.kind}, ${b.hotel.address}`,
    `- ${b.nights} night${b.nights === 1 ? "" : "s"}, check in ${b.departDate}, check out ${b.returnDate}`,
    `- Room: ${b.roomType ?? "no preference given"}`,
    "",
    `## Travel insurance`,
    "",
    b.travelInsurance ? `Included (${usd(b.price.insuranceUsd)}).` : "Not included.",
    "",
  ].join("\n");
}

/** The file name an itinerary is saved under. */
export const itineraryFileName = (b: Pick<Booking, "reference">) => `itinerary-${b.reference}.md`;
