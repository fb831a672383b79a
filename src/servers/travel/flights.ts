// The travel demo's bundled data: a summer timetable of round-trip fares from New York, and one
// hotel per destination. Literal rows, so every run (and every 2026-07-28 replay) sees the same
// flights; times are computed from block times and summer UTC offsets, so they stay consistent.

export type Cabin = "economy" | "premium economy" | "business";

/** The demo trip: Barcelona, June 15-22. */
export const DEMO_TRIP = { destination: "BCN", departDate: "2026-06-15", returnDate: "2026-06-22" } as const;

/** The timetable is a summer schedule: departures and returns must fall inside it. */
export const SEASON = { from: "2026-06-01", to: "2026-08-31" } as const;

export interface Destination {
  code: string;
  city: string;
  /** ISO 3166 country code: every flight leaves New York, so anything but "US" is an international trip. */
  country: string;
  /** Other names a person might type. */
  aliases: string[];
}

export const DESTINATIONS: Destination[] = [
  { code: "BCN", city: "Barcelona", country: "ES", aliases: ["barcelona", "bcn", "barcelona el prat"] },
  { code: "LIS", city: "Lisbon", country: "PT", aliases: ["lisbon", "lisboa", "lis"] },
  { code: "FCO", city: "Rome", country: "IT", aliases: ["rome", "roma", "fco"] },
  { code: "CDG", city: "Paris", country: "FR", aliases: ["paris", "cdg"] },
  { code: "LHR", city: "London", country: "GB", aliases: ["london", "lhr"] },
];

export interface Hotel {
  name: string;
  /** How the trip summary describes it, e.g. "beachfront hotel". */
  kind: string;
  address: string;
  nightlyUsd: number;
}

export const HOTELS: Record<string, Hotel> = {
  BCN: {
    name: "Hotel Mar Bella Beachfront",
    kind: "beachfront hotel",
    address: "Passeig Marítim de la Mar Bella 7, Barcelona",
    nightlyUsd: 260,
  },
  LIS: { name: "Casa do Tejo", kind: "riverside hotel", address: "Rua da Junqueira 44, Lisbon", nightlyUsd: 210 },
  FCO: { name: "Albergo Trastevere", kind: "boutique hotel", address: "Via della Lungaretta 91, Rome", nightlyUsd: 240 },
  CDG: { name: "Hôtel Canal Saint-Martin", kind: "canal-side hotel", address: "Quai de Valmy 58, Paris", nightlyUsd: 285 },
  LHR: { name: "Southbank Rooms", kind: "riverside hotel", address: "Belvedere Road 12, London", nightlyUsd: 310 },
};

/** Summer (June-August) UTC offsets in minutes; fixed because the timetable only covers summer. */
const UTC_OFFSET: Record<string, number> = {
  JFK: -240,
  EWR: -240,
  BOS: -240,
  PHL: -240,
  YUL: -240,
  KEF: 0,
  LHR: 60,
  DUB: 60,
  LIS: 60,
  BCN: 120,
  MAD: 120,
  CDG: 120,
  FRA: 120,
  MUC: 120,
  AMS: 120,
  ZRH: 120,
  FCO: 120,
  CPH: 120,
  IST: 180,
};

/** Scheduled block time in minutes, per direction (eastbound is faster with the jet stream). */
const BLOCK: Record<string, number> = {
  "JFK-BCN": 500,
  "BCN-JFK": 555,
  "EWR-BCN": 495,
  "BCN-EWR": 550,
  "JFK-MAD": 445,
  "MAD-JFK": 510,
  "MAD-BCN": 80,
  "BCN-MAD": 80,
  "JFK-LHR": 420,
  "LHR-JFK": 480,
  "LHR-BCN": 125,
  "BCN-LHR": 130,
  "JFK-CDG": 440,
  "CDG-JFK": 505,
  "CDG-BCN": 105,
  "BCN-CDG": 110,
  "JFK-FRA": 470,
  "FRA-JFK": 540,
  "FRA-BCN": 120,
  "BCN-FRA": 125,
  "EWR-FRA": 465,
  "FRA-EWR": 535,
  "JFK-MUC": 490,
  "MUC-JFK": 560,
  "MUC-BCN": 120,
  "BCN-MUC": 120,
  "FRA-MUC": 60,
  "MUC-FRA": 60,
  "JFK-AMS": 445,
  "AMS-JFK": 510,
  "AMS-BCN": 135,
  "BCN-AMS": 135,
  "JFK-ZRH": 480,
  "ZRH-JFK": 545,
  "ZRH-BCN": 105,
  "BCN-ZRH": 105,
  "JFK-LIS": 415,
  "LIS-JFK": 495,
  "LIS-BCN": 115,
  "BCN-LIS": 120,
  "JFK-DUB": 395,
  "DUB-JFK": 480,
  "DUB-BCN": 155,
  "BCN-DUB": 160,
  "JFK-IST": 600,
  "IST-JFK": 685,
  "IST-BCN": 235,
  "BCN-IST": 220,
  "JFK-KEF": 330,
  "KEF-JFK": 360,
  "KEF-BCN": 270,
  "BCN-KEF": 275,
  "KEF-CPH": 180,
  "CPH-KEF": 190,
  "CPH-BCN": 175,
  "BCN-CPH": 170,
  "JFK-BOS": 80,
  "BOS-JFK": 85,
  "BOS-DUB": 370,
  "DUB-BOS": 440,
  "BOS-LIS": 385,
  "LIS-BOS": 455,
  "BOS-AMS": 430,
  "AMS-BOS": 495,
  "JFK-YUL": 90,
  "YUL-JFK": 95,
  "YUL-BCN": 470,
  "BCN-YUL": 530,
  "YUL-FRA": 445,
  "FRA-YUL": 510,
  "JFK-PHL": 60,
  "PHL-JFK": 65,
  "PHL-MAD": 435,
  "MAD-PHL": 500,
  "MAD-LIS": 75,
  "LIS-MAD": 75,
  "JFK-FCO": 525,
  "FCO-JFK": 605,
  "MAD-FCO": 140,
  "FCO-MAD": 145,
  "FRA-FCO": 110,
  "FCO-FRA": 115,
  "LHR-CDG": 75,
  "CDG-LHR": 80,
  "DUB-LHR": 80,
  "LHR-DUB": 80,
  "AMS-LHR": 70,
  "LHR-AMS": 75,
  "AMS-CDG": 80,
  "CDG-AMS": 80,
  "DUB-CDG": 110,
  "CDG-DUB": 105,
  "BOS-IST": 580,
  "IST-BOS": 660,
};

/**
 * One fare of the timetable, written as two legs in a small notation:
 * "JFK 08:25 BA112 LHR 1:50 BA478 BCN" = leave JFK at 08:25 on BA112 to LHR, 1 h 50 there, BA478 to BCN.
 */
type Row = [airline: string, cabin: Cabin, priceUsd: number, outbound: string, inbound: string];

const E: Cabin = "economy";
const P: Cabin = "premium economy";
const B: Cabin = "business";

const TIMETABLE: Record<string, Row[]> = {
  BCN: [
    // nonstop
    ["Delta", E, 1240, "JFK 17:45 DL168 BCN", "BCN 10:35 DL169 JFK"],
    ["Delta", E, 1090, "JFK 22:15 DL170 BCN", "BCN 13:10 DL171 JFK"],
    ["American Airlines", E, 1260, "JFK 18:30 AA112 BCN", "BCN 12:05 AA113 JFK"],
    ["American Airlines", P, 2290, "JFK 09:50 AA114 BCN", "BCN 15:20 AA115 JFK"],
    ["United", E, 1210, "EWR 17:05 UA121 BCN", "BCN 11:30 UA120 EWR"],
    ["United", E, 1050, "EWR 21:40 UA123 BCN", "BCN 16:45 UA122 EWR"],
    ["Level", E, 890, "EWR 21:20 IB2622 BCN", "BCN 15:40 IB2621 EWR"],
    ["Delta", P, 2150, "JFK 17:45 DL168 BCN", "BCN 10:35 DL169 JFK"],
    ["Delta", B, 4980, "JFK 17:45 DL168 BCN", "BCN 10:35 DL169 JFK"],
    ["American Airlines", B, 5240, "JFK 18:30 AA112 BCN", "BCN 12:05 AA113 JFK"],
    // one stop
    ["British Airways", E, 1180, "JFK 08:25 BA112 LHR 1:50 BA478 BCN", "BCN 07:10 BA475 LHR 2:20 BA117 JFK"],
    ["British Airways", E, 1245, "JFK 09:40 BA114 LHR 2:35 BA480 BCN", "BCN 12:20 BA483 LHR 1:55 BA179 JFK"],
    ["British Airways", E, 1030, "JFK 19:10 BA178 LHR 1:35 BA474 BCN", "BCN 16:05 BA487 LHR 2:10 BA183 JFK"],
    ["Aer Lingus", E, 1235, "JFK 07:55 EI104 DUB 1:40 EI564 BCN", "BCN 10:15 EI565 DUB 1:50 EI105 JFK"],
    ["Aer Lingus", E, 960, "JFK 20:30 EI106 DUB 2:10 EI562 BCN", "BCN 14:40 EI563 DUB 2:05 EI107 JFK"],
    ["Iberia", E, 1010, "JFK 17:40 IB6252 MAD 1:30 IB3010 BCN", "BCN 08:05 IB3001 MAD 2:15 IB6251 JFK"],
    ["Iberia", E, 985, "JFK 20:10 IB6254 MAD 2:05 IB3020 BCN", "BCN 11:45 IB3011 MAD 1:40 IB6253 JFK"],
    ["Iberia", B, 4350, "JFK 17:40 IB6252 MAD 1:30 IB3010 BCN", "BCN 08:05 IB3001 MAD 2:15 IB6251 JFK"],
    ["Air France", E, 1295, "JFK 10:30 AF011 CDG 2:10 AF1448 BCN", "BCN 09:55 AF1149 CDG 2:25 AF010 JFK"],
    ["Air France", E, 1105, "JFK 17:30 AF007 CDG 1:50 AF1348 BCN", "BCN 11:20 AF1249 CDG 1:45 AF006 JFK"],
    ["Air France", E, 995, "JFK 22:45 AF009 CDG 2:40 AF1548 BCN", "BCN 15:30 AF1649 CDG 2:00 AF008 JFK"],
    ["Lufthansa", E, 1140, "JFK 16:15 LH401 FRA 1:45 LH1134 BCN", "BCN 06:50 LH1129 FRA 2:30 LH400 JFK"],
    ["Lufthansa", E, 1125, "JFK 17:50 LH411 MUC 2:00 LH1810 BCN", "BCN 07:25 LH1807 MUC 2:25 LH410 JFK"],
    ["Lufthansa", P, 1980, "JFK 16:15 LH401 FRA 1:45 LH1134 BCN", "BCN 06:50 LH1129 FRA 2:30 LH400 JFK"],
    ["Lufthansa", B, 4120, "JFK 16:15 LH401 FRA 1:45 LH1134 BCN", "BCN 06:50 LH1129 FRA 2:30 LH400 JFK"],
    ["KLM", E, 1070, "JFK 17:25 KL642 AMS 1:55 KL1675 BCN", "BCN 07:40 KL1662 AMS 2:10 KL641 JFK"],
    ["KLM", E, 975, "JFK 21:30 KL644 AMS 2:25 KL1677 BCN", "BCN 13:15 KL1670 AMS 1:50 KL643 JFK"],
    ["TAP Air Portugal", E, 1150, "JFK 10:55 TP210 LIS 5:40 TP1034 BCN", "BCN 08:30 TP1031 LIS 4:55 TP209 JFK"],
    ["TAP Air Portugal", E, 945, "JFK 22:00 TP208 LIS 1:35 TP1032 BCN", "BCN 12:10 TP1035 LIS 2:20 TP207 JFK"],
    ["Swiss", E, 1190, "JFK 18:05 LX17 ZRH 1:40 LX1952 BCN", "BCN 07:15 LX1951 ZRH 2:00 LX16 JFK"],
    ["Swiss", E, 1080, "JFK 22:40 LX23 ZRH 2:30 LX1954 BCN", "BCN 12:45 LX1955 ZRH 1:50 LX22 JFK"],
    ["Turkish Airlines", E, 920, "JFK 23:40 TK12 IST 2:35 TK1853 BCN", "BCN 13:20 TK1854 IST 3:05 TK11 JFK"],
    ["Icelandair", E, 870, "JFK 20:30 FI614 KEF 1:10 FI1592 BCN", "BCN 16:20 FI1593 KEF 1:25 FI615 JFK"],
    ["Air Canada", E, 1035, "JFK 14:45 AC8899 YUL 2:25 AC830 BCN", "BCN 11:10 AC831 YUL 2:35 AC8898 JFK"],
    ["United", E, 1095, "EWR 18:15 UA962 FRA 2:00 LH1136 BCN", "BCN 09:40 LH1131 FRA 2:15 UA963 EWR"],
    // two stops
    ["Aer Lingus", E, 940, "JFK 06:10 EI8741 BOS 1:50 EI138 DUB 1:30 EI566 BCN", "BCN 09:05 EI567 DUB 1:45 EI139 BOS 1:40 EI8742 JFK"],
    ["Icelandair", E, 835, "JFK 20:30 FI614 KEF 1:15 FI204 CPH 1:30 SK1581 BCN", "BCN 12:25 SK1582 CPH 1:40 FI205 KEF 1:20 FI615 JFK"],
    [
      "American Airlines",
      E,
      965,
      "JFK 06:45 AA4419 PHL 1:50 AA738 MAD 1:35 IB3016 BCN",
      "BCN 08:40 IB3017 MAD 2:05 AA739 PHL 1:45 AA4420 JFK",
    ],
    ["Lufthansa", E, 990, "JFK 16:15 LH401 FRA 1:10 LH2470 MUC 1:25 LH1810 BCN", "BCN 07:25 LH1807 MUC 1:15 LH2471 FRA 2:30 LH400 JFK"],
    ["Air Canada", E, 905, "JFK 11:20 AC8891 YUL 2:15 AC874 FRA 1:45 LH1134 BCN", "BCN 06:50 LH1129 FRA 2:20 AC875 YUL 2:00 AC8890 JFK"],
    ["Delta", E, 970, "JFK 08:05 DL5432 BOS 2:05 DL214 AMS 1:50 KL1675 BCN", "BCN 07:40 KL1662 AMS 2:05 DL215 BOS 1:45 DL5433 JFK"],
    [
      "TAP Air Portugal",
      E,
      925,
      "JFK 06:55 B6118 BOS 2:00 TP218 LIS 1:45 TP1034 BCN",
      "BCN 08:30 TP1031 LIS 2:10 TP217 BOS 1:50 B6119 JFK",
    ],
    [
      "Turkish Airlines",
      E,
      1015,
      "JFK 13:05 TK4301 BOS 2:10 TK82 IST 2:40 TK1853 BCN",
      "BCN 13:20 TK1854 IST 2:30 TK81 BOS 1:55 TK4302 JFK",
    ],
    ["KLM", E, 950, "JFK 21:30 KL644 AMS 1:30 KL1001 LHR 1:40 BA478 BCN", "BCN 12:20 BA483 LHR 1:35 KL1002 AMS 2:15 KL643 JFK"],
  ],
  LIS: [
    ["TAP Air Portugal", E, 980, "JFK 22:00 TP208 LIS", "LIS 12:30 TP207 JFK"],
    ["TAP Air Portugal", E, 1120, "JFK 10:55 TP210 LIS", "LIS 16:20 TP209 JFK"],
    ["Delta", E, 1060, "JFK 19:40 DL272 LIS", "LIS 11:50 DL273 JFK"],
    ["Iberia", E, 905, "JFK 17:40 IB6252 MAD 2:10 IB3102 LIS", "LIS 09:15 IB3103 MAD 2:00 IB6251 JFK"],
    ["Aer Lingus", E, 870, "JFK 06:10 EI8741 BOS 2:20 TP218 LIS", "LIS 13:10 TP217 BOS 2:05 EI8742 JFK"],
  ],
  FCO: [
    ["ITA Airways", E, 1190, "JFK 17:55 AZ611 FCO", "FCO 10:15 AZ610 JFK"],
    ["Delta", E, 1250, "JFK 16:40 DL200 FCO", "FCO 11:05 DL201 JFK"],
    ["Iberia", E, 1015, "JFK 20:10 IB6254 MAD 1:55 IB3230 FCO", "FCO 07:45 IB3231 MAD 2:25 IB6253 JFK"],
    ["Lufthansa", E, 1080, "JFK 16:15 LH401 FRA 2:05 LH232 FCO", "FCO 06:30 LH233 FRA 2:45 LH400 JFK"],
  ],
  CDG: [
    ["Air France", E, 1020, "JFK 10:30 AF011 CDG", "CDG 13:45 AF010 JFK"],
    ["Air France", E, 940, "JFK 22:45 AF009 CDG", "CDG 17:20 AF008 JFK"],
    ["Delta", E, 1005, "JFK 18:20 DL264 CDG", "CDG 11:30 DL265 JFK"],
    ["Aer Lingus", E, 845, "JFK 20:30 EI106 DUB 1:55 EI526 CDG", "CDG 11:10 EI527 DUB 2:10 EI107 JFK"],
    ["KLM", E, 880, "JFK 17:25 KL642 AMS 1:40 KL1229 CDG", "CDG 09:20 KL1230 AMS 2:05 KL641 JFK"],
  ],
  LHR: [
    ["British Airways", E, 960, "JFK 08:25 BA112 LHR", "LHR 11:40 BA117 JFK"],
    ["British Airways", E, 890, "JFK 19:10 BA178 LHR", "LHR 16:25 BA183 JFK"],
    ["Virgin Atlantic", E, 920, "JFK 20:05 VS4 LHR", "LHR 14:00 VS3 JFK"],
    ["Aer Lingus", E, 780, "JFK 20:30 EI106 DUB 1:35 EI154 LHR", "LHR 12:15 EI155 DUB 2:15 EI107 JFK"],
  ],
};

export interface Layover {
  airport: string;
  minutes: number;
}

export interface Segment {
  flightNumber: string;
  from: string;
  to: string;
  /** Local time with its UTC offset, e.g. "2026-06-15T08:25-04:00". */
  depart: string;
  arrive: string;
}

export interface Leg {
  from: string;
  to: string;
  depart: string;
  arrive: string;
  durationMinutes: number;
  flightNumbers: string[];
  layovers: Layover[];
  segments: Segment[];
}

export interface Flight {
  /** Stable id, e.g. "BCN-11" (destination + row number), what tools and models refer to. */
  id: string;
  airline: string;
  cabin: Cabin;
  /** Round-trip fare for one traveler. */
  priceUsd: number;
  origin: string;
  destination: string;
  outbound: Leg;
  inbound: Leg;
}

const pad = (n: number) => String(n).padStart(2, "0");

function hhmm(text: string): number {
  const m = /^(\d{1,2}):(\d{2})$/.exec(text);
  if (!m) throw new Error(`bad time "${text}" in the timetable`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** "2026-06-15T08:25-04:00" for an instant (ms since epoch) seen from an airport. */
function localIso(utcMs: number, airport: string): string {
  const offset = UTC_OFFSET[airport]!;
  const d = new Date(utcMs + offset * 60_000);
  const sign = offset < 0 ? "-" : "+";
  const off = Math.abs(offset);
  return `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}${sign}${pad(Math.floor(off / 60))}:${pad(off % 60)}`;
}

/** Expands one leg of the notation on a given date into segments, layovers and local times. */
function buildLeg(notation: string, date: string): Leg {
  const t = notation.trim().split(/\s+/);
  const origin = t[0]!;
  const [y, mo, d] = date.split("-").map(Number) as [number, number, number];
  let clock = Date.UTC(y, mo - 1, d) + (hhmm(t[1]!) - UTC_OFFSET[origin]!) * 60_000;
  const start = clock;
  const segments: Segment[] = [];
  const layovers: Layover[] = [];
  let from = origin;
  for (let i = 2; i < t.length;) {
    const flightNumber = t[i]!;
    const to = t[i + 1]!;
    const block = BLOCK[`${from}-${to}`];
    if (block === undefined || UTC_OFFSET[to] === undefined) throw new Error(`no block time or offset for ${from}-${to} in the timetable`);
    const depart = localIso(clock, from);
    clock += block * 60_000;
    segments.push({ flightNumber, from, to, depart, arrive: localIso(clock, to) });
    i += 2;
    if (i < t.length) {
      const minutes = hhmm(t[i]!);
      layovers.push({ airport: to, minutes });
      clock += minutes * 60_000;
      i++;
    }
    from = to;
  }
  return {
    from: origin,
    to: from,
    depart: segments[0]!.depart,
    arrive: segments.at(-1)!.arrive,
    durationMinutes: (clock - start) / 60_000,
    flightNumbers: segments.map((s) => s.flightNumber),
    layovers,
    segments,
  };
}

/** A destination by IATA code or city name (case-insensitive), or undefined. */
export function findDestination(query: string): Destination | undefined {
  const q = query.trim().toLowerCase();
  return DESTINATIONS.find((d) => d.code.toLowerCase() === q || d.city.toLowerCase() === q || d.aliases.includes(q));
}

/** Every fare to `code` for a trip leaving `departDate` and returning `returnDate` (dates already checked). */
export function flightsFor(code: string, departDate: string, returnDate: string): Flight[] {
  return (TIMETABLE[code] ?? []).map(([airline, cabin, priceUsd, out, back], i) => {
    const outbound = buildLeg(out, departDate);
    const inbound = buildLeg(back, returnDate);
    return { id: `${code}-${pad(i + 1)}`, airline, cabin, priceUsd, origin: outbound.from, destination: code, outbound, inbound };
  });
}

/** Whole nights between two YYYY-MM-DD dates. */
export function nightsBetween(departDate: string, returnDate: string): number {
  return Math.round((Date.parse(`${returnDate}T00:00:00Z`) - Date.parse(`${departDate}T00:00:00Z`)) / 86_400_000);
}

export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** A problem with the trip's dates, in words, or undefined when they are fine. */
export function checkDates(departDate: string, returnDate: string): string | undefined {
  for (const [name, value] of [
    ["departDate", departDate],
    ["returnDate", returnDate],
  ] as const) {
    if (!isCalendarDate(value)) return `${name} "${value}" is not a date; use YYYY-MM-DD, e.g. ${DEMO_TRIP[name]}.`;
    if (value < SEASON.from || value > SEASON.to) {
      return `${name} ${value} is outside the timetable, which covers ${SEASON.from} to ${SEASON.to} (the demo trip is ${DEMO_TRIP.departDate} to ${DEMO_TRIP.returnDate}).`;
    }
  }
  if (returnDate < departDate) return `returnDate ${returnDate} is before departDate ${departDate}.`;
  if (returnDate === departDate) return `returnDate is the same day as departDate (${departDate}); a trip needs at least one night.`;
  return undefined;
}

/** "$3,000" */
export const usd = (amount: number) => `$${amount.toLocaleString("en-US")}`;

/** "15h40" */
export const hoursMinutes = (minutes: number) => `${Math.floor(minutes / 60)}h${pad(minutes % 60)}`;

/** "08:25" from a local ISO time. */
export const clockOf = (iso: string) => iso.slice(11, 16);

/** "June 15-22", or "June 28 - July 5" across months. */
export function dateRange(departDate: string, returnDate: string): string {
  const month = (date: string) => new Date(`${date}T00:00:00Z`).toLocaleString("en-US", { month: "long", timeZone: "UTC" });
  const day = (date: string) => Number(date.slice(8, 10));
  return month(departDate) === month(returnDate)
    ? `${month(departDate)} ${day(departDate)}-${day(returnDate)}`
    : `${month(departDate)} ${day(departDate)} - ${month(returnDate)} ${day(returnDate)}`;
}

/** One line about a leg: "08:25 JFK → 00:05+1 BCN, 15h40, 1 stop (LHR 1h50), BA112+BA478". */
export function describeLeg(leg: Leg): string {
  const dayShift = Math.round((Date.parse(leg.arrive.slice(0, 10)) - Date.parse(leg.depart.slice(0, 10))) / 86_400_000);
  const stops =
    leg.layovers.length === 0
      ? "nonstop"
      : `${leg.layovers.length} stop${leg.layovers.length > 1 ? "s" : ""} (${leg.layovers.map((l) => `${l.airport} ${hoursMinutes(l.minutes)}`).join(", ")})`;
  return `${clockOf(leg.depart)} ${leg.from} → ${clockOf(leg.arrive)}${dayShift > 0 ? `+${dayShift}` : ""} ${leg.to}, ${hoursMinutes(leg.durationMinutes)}, ${stops}, ${leg.flightNumbers.join("+")}`;
}

/** One line about a fare, as search results and the model's prompt show it. */
export function describeFlight(f: Flight): string {
  return `${f.id}: ${f.airline}, ${f.cabin}, ${usd(f.priceUsd)} round trip | out ${describeLeg(f.outbound)} | back ${describeLeg(f.inbound)}`;
}
