// CPU quotas for bench processes: each capped process gets a cgroup of its own limited to `cpus` CPUs
// (quota = cpus × period every period), so N capped members have N times the CPU of one whatever else
// runs on the machine, while the load generator, HAProxy and Redis stay outside. Tried in order:
// - cgroup v2 (the cgroup2 mount, usually /sys/fs/cgroup): a group `mcp-elicit-bench-<pid>` with +cpu in
//   its parent's cgroup.subtree_control, one child per process with cpu.max = "<quota> <period>";
// - cgroup v1 (the mount whose options name the cpu controller, e.g. /sys/fs/cgroup/cpu): the same
//   groups with cpu.cfs_period_us and cpu.cfs_quota_us;
// - `systemd-run --scope -p CPUQuota= -p CPUQuotaPeriodSec=` (--user when not root): a scope holding a
//   placeholder `sleep`, whose cgroup the process is then moved into (systemd-run only starts new
//   commands; moving into a scope one owns is allowed).
// The first that works is used; when none does, the result is uncapped with the reason of each. Groups
// are removed by close(), and also on exit and on SIGINT/SIGTERM (synchronously: a process still in a
// group is moved back to the parent first).
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { onExit } from "../test/helpers/cleanup.js";

export interface CpuQuotaOptions {
  /** CPUs per capped process (0.3 = 30 % of one core). */
  cpus: number;
  /** The scheduler period in µs: a process out of quota waits for the next period, so a shorter one stalls it for less. */
  periodUs: number;
  /** Unused quota a group may bank and spend at once, in µs (cgroup v1 cpu.cfs_burst_us, v2 cpu.max.burst; default 0): the average stays at `cpus`. */
  burstUs?: number;
  /** Each group's CPU weight, in ordinary processes (1–100; default 100). */
  weight?: number;
}

export interface GroupStats {
  name: string;
  /** Periods the group ran in, and in how many it used up its quota and was stopped. */
  periods: number;
  throttled: number;
  throttledMs: number;
}

export interface CpuQuota extends CpuQuotaOptions {
  /** How processes are capped ("cgroup v1 at /sys/fs/cgroup/cpu", …), or undefined when they are not. */
  mechanism?: string;
  /** Why nothing could cap (each way tried, with its error), when mechanism is undefined. */
  reason?: string;
  /** Puts `pid` (all its threads; children it starts later follow) in a group of its own named `name`, capped; a no-op when uncapped. */
  cap(pid: number, name: string): void;
  /** The same, uncapped: only the weight (for the load generator, HAProxy and Redis, which must not starve the capped members' clients). */
  boost(pid: number, name: string): void;
  /** Each group's throttling counters so far (from cpu.stat). */
  stats(): GroupStats[];
  close(): void;
}

interface Backend {
  mechanism: string;
  /** Makes the group for `name` (capped, or only weighted) and returns its directory. */
  group(name: string, capped: boolean): string;
  /** Where a process goes back to before its group is removed. */
  parentProcs: string;
  /** The directory holding the groups (none for systemd scopes). */
  base: string;
  remove(dir: string): void;
  removeBase(): void;
}

const BASE = `mcp-elicit-bench-${process.pid}`;
// A quota only limits: on a machine busy with other work, a capped process may get less than its quota,
// and the uncapped load generator, HAProxy and Redis less than they need. Every group therefore weighs as
// `weight` ordinary processes (cpu.shares 1024×, cpu.weight 100×; default 100, the most cgroup v2 allows),
// so the quota, not the other work, is what bounds the members.

/** The mount points of cgroup v2 and of v1's cpu controller, from /proc/self/mountinfo. */
function mounts(): { v2?: string; v1cpu?: string } {
  const found: { v2?: string; v1cpu?: string } = {};
  for (const line of readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [left, right] = line.split(" - ");
    if (!left || !right) continue;
    const mountPoint = left.split(" ")[4]!;
    const [type, , options = ""] = right.split(" ");
    if (type === "cgroup2") found.v2 ??= mountPoint;
    if (type === "cgroup" && options.split(",").includes("cpu")) found.v1cpu ??= mountPoint;
  }
  return found;
}

const write = (file: string, text: string) => writeFileSync(file, text);

/** Moves every process still in `dir` to `parentProcs`, then removes `dir` (best effort: cleanup must go on). */
function emptyAndRemove(dir: string, parentProcs: string): void {
  try {
    for (const pid of readFileSync(join(dir, "cgroup.procs"), "utf8").split("\n").filter(Boolean)) {
      try {
        write(parentProcs, pid);
      } catch {
        // gone already
      }
    }
    rmdirSync(dir);
  } catch {
    // already removed
  }
}

function cgroupV2(root: string, { cpus, periodUs, burstUs = 0, weight = 100 }: CpuQuotaOptions): Backend {
  if (!readFileSync(join(root, "cgroup.controllers"), "utf8").split(/\s+/).includes("cpu"))
    throw new Error(`the cpu controller is not enabled at ${root} (cgroup.controllers lacks cpu; it may be bound to cgroup v1)`);
  write(join(root, "cgroup.subtree_control"), "+cpu");
  const base = join(root, BASE);
  mkdirSync(base);
  try {
    // Weights count among siblings: the group holding all of ours weighs as much as they do together.
    write(join(base, "cpu.weight"), "10000");
    write(join(base, "cgroup.subtree_control"), "+cpu");
  } catch (error) {
    rmdirSync(base);
    throw error;
  }
  return {
    mechanism: `cgroup v2 at ${root} (cpu.max)`,
    base,
    parentProcs: join(root, "cgroup.procs"),
    group(name, capped) {
      const dir = join(base, name);
      mkdirSync(dir);
      write(join(dir, "cpu.weight"), String(weight * 100));
      if (capped) write(join(dir, "cpu.max"), `${Math.round(cpus * periodUs)} ${periodUs}`);
      if (capped && burstUs) write(join(dir, "cpu.max.burst"), String(burstUs));
      return dir;
    },
    remove: (dir) => emptyAndRemove(dir, join(root, "cgroup.procs")),
    removeBase: () => emptyAndRemove(base, join(root, "cgroup.procs")),
  };
}

function cgroupV1(root: string, { cpus, periodUs, burstUs = 0, weight = 100 }: CpuQuotaOptions): Backend {
  const base = join(root, BASE);
  mkdirSync(base);
  // Weights count among siblings: the group holding all of ours weighs as much as they do together (262144 is v1's most).
  write(join(base, "cpu.shares"), String(Math.min(262_144, weight * 1024 * 6)));
  return {
    mechanism: `cgroup v1 at ${root} (cpu.cfs_quota_us / cpu.cfs_period_us)`,
    base,
    parentProcs: join(root, "cgroup.procs"),
    group(name, capped) {
      const dir = join(base, name);
      mkdirSync(dir);
      write(join(dir, "cpu.shares"), String(weight * 1024));
      if (capped) {
        write(join(dir, "cpu.cfs_period_us"), String(periodUs));
        write(join(dir, "cpu.cfs_quota_us"), String(Math.round(cpus * periodUs)));
        if (burstUs) write(join(dir, "cpu.cfs_burst_us"), String(burstUs));
      }
      return dir;
    },
    remove: (dir) => emptyAndRemove(dir, join(root, "cgroup.procs")),
    removeBase: () => emptyAndRemove(base, join(root, "cgroup.procs")),
  };
}

function systemdScopes(where: { v2?: string; v1cpu?: string }, { cpus, periodUs, burstUs, weight = 100 }: CpuQuotaOptions): Backend {
  if (burstUs) throw new Error("systemd-run scopes take no CPU burst; run without BENCH_FLEET_CPU_BURST_US");
  const user = process.getuid?.() !== 0 ? ["--user"] : [];
  const state = spawnSync("systemctl", [...user, "is-system-running"], { encoding: "utf8" });
  if (state.error) throw state.error;
  if (/offline|^$/.test(state.stdout.trim()))
    throw new Error(`systemd is not running here (systemctl is-system-running: ${state.stdout.trim() || state.stderr.trim()})`);
  const placeholders = new Map<string, ChildProcess>();
  const units = new Map<string, string>();
  return {
    mechanism: `systemd-run ${user.join(" ")} --scope -p CPUQuota=${Math.round(cpus * 100)}% -p CPUQuotaPeriodSec=${periodUs / 1000}ms`,
    parentProcs: "",
    base: "/nonexistent",
    group(name, capped) {
      const unit = `${BASE}-${name}.scope`;
      const limits = capped ? ["-p", `CPUQuota=${Math.round(cpus * 100)}%`, "-p", `CPUQuotaPeriodSec=${periodUs / 1000}ms`] : [];
      const sleeper = spawn(
        "systemd-run",
        [...user, "--scope", "--quiet", "--collect", `--unit=${unit}`, "-p", `CPUWeight=${weight * 100}`, ...limits, "sleep", "infinity"],
        { stdio: "ignore", detached: false },
      );
      placeholders.set(unit, sleeper);
      // The scope exists once systemd reports its cgroup (systemd-run returns only when the command ends).
      const deadline = Date.now() + 5000;
      let cgroup = "";
      while (!cgroup && Date.now() < deadline) {
        cgroup = spawnSync("systemctl", [...user, "show", "-p", "ControlGroup", "--value", unit], { encoding: "utf8" }).stdout.trim();
      }
      if (!cgroup) throw new Error(`systemd-run: scope ${unit} did not appear within 5 s`);
      const dir = [where.v2, where.v1cpu].map((root) => root && join(root, cgroup)).find((d) => d && existsSync(join(d, "cgroup.procs")));
      if (!dir) throw new Error(`systemd-run: the cgroup ${cgroup} of ${unit} is not under a mounted cpu hierarchy`);
      units.set(dir, unit);
      return dir;
    },
    remove(dir) {
      const unit = units.get(dir);
      if (!unit) return;
      spawnSync("systemctl", [...user, "stop", unit]);
      placeholders.get(unit)?.kill();
    },
    removeBase() {},
  };
}

function readStats(dir: string, name: string): GroupStats {
  const fields = Object.fromEntries(
    readFileSync(join(dir, "cpu.stat"), "utf8")
      .split("\n")
      .filter(Boolean)
      .map((line) => line.split(" ") as [string, string]),
  );
  const throttledMs = fields.throttled_usec !== undefined ? Number(fields.throttled_usec) / 1000 : Number(fields.throttled_time ?? 0) / 1e6;
  return { name, periods: Number(fields.nr_periods ?? 0), throttled: Number(fields.nr_throttled ?? 0), throttledMs };
}

export function openCpuQuota(options: CpuQuotaOptions): CpuQuota {
  const uncapped = (reason: string): CpuQuota => ({ ...options, reason, cap() {}, boost() {}, stats: () => [], close() {} });
  if (!(options.cpus > 0)) return uncapped("no quota was asked for (BENCH_FLEET_CPU=0)");
  if (!(Number.isInteger(options.periodUs) && options.periodUs >= 1000 && options.periodUs <= 1_000_000))
    throw new RangeError(`cpu quota: the period must be 1,000–1,000,000 µs, got ${options.periodUs}`);
  // The kernel refuses a quota under 1 ms (EINVAL), in cgroup v1 and v2 alike.
  if (options.cpus * options.periodUs < 1000)
    throw new RangeError(
      `cpu quota: ${options.cpus} CPU of a ${options.periodUs} µs period is under the kernel's 1 ms minimum quota; use a period of at least ${Math.ceil(1000 / options.cpus)} µs`,
    );
  // The kernel takes a burst up to the quota itself.
  if (
    options.burstUs &&
    !(Number.isInteger(options.burstUs) && options.burstUs > 0 && options.burstUs <= Math.round(options.cpus * options.periodUs))
  )
    throw new RangeError(
      `cpu quota: the burst must be 1 µs up to the quota (${Math.round(options.cpus * options.periodUs)} µs), got ${options.burstUs}`,
    );
  if (options.weight !== undefined && !(Number.isInteger(options.weight) && options.weight >= 1 && options.weight <= 100))
    throw new RangeError(`cpu quota: the weight must be an integer 1–100, got ${options.weight}`);
  if (process.platform !== "linux") return uncapped(`cgroups are Linux only (this is ${process.platform})`);
  const where = mounts();
  const attempts: [string, () => Backend][] = [
    ["cgroup v2", () => (where.v2 ? cgroupV2(where.v2, options) : fail("no cgroup2 mount"))],
    ["cgroup v1", () => (where.v1cpu ? cgroupV1(where.v1cpu, options) : fail("no cgroup v1 cpu mount"))],
    ["systemd-run", () => systemdScopes(where, options)],
  ];
  const failures: string[] = [];
  let backend: Backend | undefined;
  for (const [label, attempt] of attempts) {
    try {
      backend = attempt();
      break;
    } catch (error) {
      failures.push(`${label}: ${(error as Error).message}`);
    }
  }
  if (!backend) return uncapped(failures.join("; "));

  const groups = new Map<string, string>();
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    unregister();
    for (const dir of groups.values()) backend.remove(dir);
    backend.removeBase();
  };
  const enter = (pid: number, name: string, capped: boolean) => {
    let dir: string | undefined;
    try {
      dir = backend.group(name, capped);
      groups.set(name, dir);
    } finally {
      // A group made but refused its settings would keep the base from being removed.
      if (!dir) emptyAndRemove(join(backend.base, name), backend.parentProcs);
    }
    write(join(dir, "cgroup.procs"), String(pid));
  };
  // Ctrl-C, SIGTERM and errors end the process through 'exit' (test/helpers/cleanup.ts), which removes the groups.
  const unregister = onExit(close);
  return {
    ...options,
    mechanism: backend.mechanism,
    cap: (pid, name) => enter(pid, name, true),
    boost: (pid, name) => enter(pid, name, false),
    stats: () => [...groups].map(([name, dir]) => readStats(dir, name)),
    close,
  };
}

function fail(message: string): never {
  throw new Error(message);
}
