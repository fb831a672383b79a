// The demo's passport photo page: a small PNG drawn in code (a header band, a photo box and the
// machine-readable lines as grey bars), so the headless browser has a real image to upload and
// nothing resembling a real passport is shipped.
import { deflateSync } from "node:zlib";

const WIDTH = 160;
const HEIGHT = 112;

/** The file name the headless browser gives the upload. */
export const SAMPLE_PASSPORT_NAME = "passport-photo-page.png";

/** What colour the sample has at (x, y): RGB. */
function pixel(x: number, y: number): [number, number, number] {
  if (y < 16) return [31, 58, 112]; // the issuing country's header band
  if (x >= 10 && x < 52 && y >= 26 && y < 80) return [170, 176, 186]; // the photo
  if (y >= 88 && y < 94 && x >= 10 && x < 150) return [90, 90, 90]; // machine-readable line 1
  if (y >= 98 && y < 104 && x >= 10 && x < 150) return [90, 90, 90]; // machine-readable line 2
  if (x >= 62 && x < 140 && (y - 30) % 12 < 4 && y >= 30 && y < 78) return [120, 120, 120]; // name, dates, number
  return [236, 232, 220]; // the page
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** The sample as PNG bytes (8-bit RGB, no filter), a few hundred bytes. */
export function samplePassportPng(): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(WIDTH, 0);
  header.writeUInt32BE(HEIGHT, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, RGB, deflate, no filter method, no interlace
  const rows = Buffer.alloc(HEIGHT * (1 + WIDTH * 3));
  for (let y = 0; y < HEIGHT; y++) {
    const row = y * (1 + WIDTH * 3);
    for (let x = 0; x < WIDTH; x++) rows.set(pixel(x, y), row + 1 + x * 3);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", header), chunk("IDAT", deflateSync(rows)), chunk("IEND", Buffer.alloc(0))]);
}
