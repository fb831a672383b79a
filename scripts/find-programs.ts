// Which of the programs the tests drive are here, found exactly as the tests find them
// (src/cli/find-program.ts: $ELICIT_CHROMIUM, $ELICIT_REDIS_SERVER, $ELICIT_HAPROXY, the PATH, the usual places).
//
//   node --import tsx scripts/find-programs.ts            each program and its path; exit 1 if one is missing
//   node --import tsx scripts/find-programs.ts --missing  the Debian packages of the missing ones, one a line (.ci/run installs them)
import { findProgram, PROGRAMS, type ProgramName } from "../src/cli/find-program.js";

const names = Object.keys(PROGRAMS) as ProgramName[];
const found = names.map((name) => ({ name, ...findProgram(name) }));

if (process.argv.includes("--missing")) {
  for (const program of found) if ("missing" in program) console.log(PROGRAMS[program.name].debianPackage);
} else {
  for (const program of found) console.log(`${program.name}: ${"path" in program ? program.path : `missing, ${program.missing}`}`);
  if (found.some((program) => "missing" in program)) process.exitCode = 1;
}
