// What createElicitation makes from its options before it composes the ways of asking: the settings
// with their defaults, the requestState key ring and seal, the store's ledgers and tasks, and how a
// 2025-era call of a fleet journals its steps.
import type { ServerContext } from "@modelcontextprotocol/server";
import { memoryStore } from "../../store/memory.js";
import type { KeyValueStore } from "../../store/types.js";
import {
  checkRouteTag,
  DEFAULT_MAX_STATE_BYTES,
  STATE_KEY_ENV,
  toStateKey,
  toStateKeys,
  type StateKeyInput,
} from "../base/sealed-state.js";
import { appElicitationRequest } from "../apps/app-elicitation.js";
import { liveCallOf } from "../fleet/calls.js";
import type { LiveStep } from "../live/live-delivery.js";
import { CallLedger } from "../rounds/ledger.js";
import type { RoundSeal } from "../rounds/round-call.js";
import { DEFAULT_MAX_TASK_ANSWER_BYTES } from "../tasks/answer-check.js";
import { TaskRecords } from "../tasks/records.js";
import { Tasks } from "../tasks/tasks.js";

/** The environment variable read for the issuer when `issuer` is not given. */
export const ISSUER_ENV = "MCP_ELICIT_ISSUER";
/** The environment variable read for the route tag when `routeTag` is not given. */
export const ROUTE_TAG_ENV = "MCP_ELICIT_ROUTE_TAG";

const DEFAULTS = {
  stateTtlMs: 30 * 60_000,
  timeoutMs: 10 * 60_000,
  progressIntervalMs: 15_000,
  attempts: 2,
  taskTtlMs: 24 * 60 * 60_000,
  taskPollIntervalMs: 1_000,
  taskLeaseMs: 30_000,
};

/** The options these parts read (ElicitationOptions, kit/elicitation.ts). */
interface PartOptions {
  stateKey?: StateKeyInput;
  issuer?: string;
  routeTag?: string;
  store?: KeyValueStore;
  stateTtlMs?: number;
  maxStateBytes?: number;
  timeoutMs?: number;
  progressIntervalMs?: number;
  attempts?: number;
  taskTtlMs?: number;
  taskPollIntervalMs?: number;
  maxTaskAnswerBytes?: number;
  taskLeaseMs?: number;
  appElicitation?: boolean;
}

export type KitSettings = ReturnType<typeof kitSettings>;

export function kitSettings(options: PartOptions) {
  return {
    ...DEFAULTS,
    ...options,
    maxStateBytes: options.maxStateBytes ?? DEFAULT_MAX_STATE_BYTES,
    // SEP-3118: form requests name the kit's form app for hosts that render elicitations as apps.
    formRequest: options.appElicitation ? appElicitationRequest : undefined,
  };
}

/**
 * What kits share by default within one process: the state key and the call ledger's store, each made on
 * first use (the key when the first state is sealed or opened): Workers forbid random numbers and timers in
 * global scope, where a kit made at module scope is constructed.
 */
let processKey: Buffer | undefined;
let processStore: KeyValueStore | undefined;
const PROCESS_KEY = () => (processKey ??= toStateKey(undefined));
export const PROCESS_STORE = () => (processStore ??= memoryStore());

/** The kit's key ring: the one given, else $MCP_ELICIT_STATE_KEY, else the process's random key (refused with a shared store), made when first needed. */
export function stateKeyRing(options: PartOptions): () => Buffer[] {
  const fromEnv = process.env[STATE_KEY_ENV]?.trim();
  if (options.stateKey !== undefined) {
    const ring = toStateKeys(options.stateKey);
    return () => ring;
  }
  if (fromEnv) {
    const ring = toStateKeys(fromEnv.split(",").map((k) => k.trim()));
    return () => ring;
  }
  if (options.store?.shared === true)
    throw new Error(
      `createElicitation: the store is shared by several processes (a fleet), but no stateKey was given: each process would seal requestState with its own random key and refuse the others'. Give every member the same stateKey (32 bytes, e.g. from $${STATE_KEY_ENV}).`,
    );
  return () => [PROCESS_KEY()];
}

/** How the kit seals requestState: with `ringOf`, by its issuer, behind its route tag (checked now, so a bad one fails here). */
export function roundSeal(options: PartOptions, settings: KitSettings, ringOf: () => Buffer[]): RoundSeal {
  const routeTag = options.routeTag ?? (process.env[ROUTE_TAG_ENV]?.trim() || undefined);
  if (routeTag !== undefined) checkRouteTag(routeTag);
  const issuer = options.issuer ?? (process.env[ISSUER_ENV]?.trim() || undefined);
  return { ringOf, issuer, routeTag, ttlMs: settings.stateTtlMs, maxBytes: settings.maxStateBytes };
}

/**
 * A task's steps are kept as long as the task. A run that finds a step still running elsewhere waits at
 * most a lease for it, then leaves the task working and tries again later.
 */
export function kitTasks(store: KeyValueStore, settings: KitSettings): Tasks {
  const taskLedger = new CallLedger(store, settings.taskTtlMs + 60_000, settings.taskLeaseMs);
  return new Tasks(new TaskRecords(store, settings.taskLeaseMs), taskLedger, {
    ttlMs: settings.taskTtlMs,
    pollIntervalMs: settings.taskPollIntervalMs,
    maxAnswerBytes: settings.maxTaskAnswerBytes ?? DEFAULT_MAX_TASK_ANSWER_BYTES,
  });
}

/**
 * A 2025-era call of a fleet session is journaled when every member reads the ledger (`journaled`): its
 * steps' values are kept there under the call's fleet-wide id, so a member that adopts the session after
 * this one died runs the call again to its end (fleet/calls.ts) without running a finished step twice.
 */
export function fleetLiveSteps(ledger: CallLedger, journaled: boolean): (ctx: ServerContext) => LiveStep | undefined {
  return (ctx) => {
    const live = journaled ? liveCallOf(ctx) : undefined;
    if (!live) return undefined;
    live.journaled();
    return (name, fn) => ledger.step(live.call, name, fn, false, live.rerun);
  };
}
