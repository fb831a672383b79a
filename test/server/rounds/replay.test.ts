// ReplayRun on its own: how a handler's input requests are batched into rounds, answered from the
// journal, and refused when the handler asks something else or uses a key twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileForm } from "../../../src/schema/compiled.js";
import { CallLedger, StepLostError } from "../../../src/server/rounds/ledger.js";
import { emptyJournal, ReplayMismatchError, ReplayRun, stepId, type Journal, type StepRunner } from "../../../src/server/rounds/replay.js";
import { sha256 } from "../../../src/server/base/sealed-state.js";
import { memoryStore } from "../../../src/store/memory.js";

const asAction = (raw: unknown) => raw as { action: string };
const ask = (run: ReplayRun, message: string, key?: string) => run.request("elicitation/create", { message }, asAction, key);

/** The call ledger's step runner, on a memory store (one per test unless shared). */
const ledgerSteps =
  (journal: Journal, ledger = new CallLedger(memoryStore(), 60_000)): StepRunner =>
  (name, fn, recorded) =>
    ledger.step(journal.call, name, fn, recorded);
const replayRun = (journal: Journal, incoming?: Record<string, unknown>) => new ReplayRun(journal, ledgerSteps(journal), incoming);

test("requests made together go out in one round; the next run answers them from the journal", async () => {
  const run = replayRun(emptyJournal());
  const outcome = await run.run(async () => Promise.all([ask(run, "a"), ask(run, "b")]));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  assert.deepEqual(Object.keys(outcome.inputRequests), ["elicit-1", "elicit-2"]);
  const next: Journal = { ...outcome.journal, answers: { "elicit-1": { action: "accept" }, "elicit-2": { action: "decline" } } };
  const again = replayRun(next);
  const done = await again.run(async () => Promise.all([ask(again, "a"), ask(again, "b")]));
  assert.deepEqual(done, { kind: "done", result: [{ action: "accept" }, { action: "decline" }] });
});

test("a replayed handler that asks something else for a recorded key gets ReplayMismatchError", async () => {
  const run = replayRun(emptyJournal());
  const outcome = await run.run(async () => ask(run, "Book Rome?"));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  const journal: Journal = { ...outcome.journal, answers: { "elicit-1": { action: "accept" } } };
  const changed = replayRun(journal);
  await assert.rejects(
    changed.run(async () => ask(changed, "Book Paris?")),
    (e: unknown) => e instanceof ReplayMismatchError && /asked something different for "elicit-1"/.test(e.message),
  );
});

test("a form's question is fingerprinted by its encoding's digest; a state from before that (whole JSON) is still answered", async () => {
  const requestedSchema = compileForm({ type: "object", properties: { ok: { type: "boolean" } } }).encoded("2026-07-28");
  const params = { message: "Proceed?", requestedSchema, mode: "form" };
  const askForm = (run: ReplayRun) => run.request("elicitation/create", params, asAction);
  const run = replayRun(emptyJournal());
  const outcome = await run.run(async () => askForm(run));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  const legacy = sha256(`elicitation/create${JSON.stringify(params)}`).slice(0, 16);
  assert.notEqual(outcome.journal.asked["elicit-1"], legacy, "the form is not hashed as its whole JSON text");
  for (const asked of [outcome.journal.asked["elicit-1"]!, legacy]) {
    const again: ReplayRun = replayRun({
      ...outcome.journal,
      asked: { "elicit-1": asked },
      answers: { "elicit-1": { action: "accept" } },
    });
    assert.deepEqual(await again.run(async () => askForm(again)), { kind: "done", result: { action: "accept" } });
  }
  const other = replayRun({
    ...outcome.journal,
    asked: { "elicit-1": "AAAAAAAAAAAAAAAA" },
    answers: { "elicit-1": { action: "accept" } },
  });
  await assert.rejects(
    other.run(async () => askForm(other)),
    ReplayMismatchError,
  );
});

test("one key used twice in a call is an error naming it", async () => {
  const run = replayRun(emptyJournal());
  await assert.rejects(
    run.run(async () => Promise.all([ask(run, "a", "same"), ask(run, "b", "same")])),
    /Input key "same" is used twice in one tool call/,
  );
});

test("the client's answers are settled when the handler reaches them: the journal keeps what settle returned, never a refused answer", async () => {
  const run = replayRun(emptyJournal());
  const outcome = await run.run(async () => Promise.all([ask(run, "a"), ask(run, "b")]));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  const journal = structuredClone(outcome.journal);
  const incoming = { "elicit-1": { action: "accept", content: { secret: "raw" } }, "elicit-2": { action: "nonsense" } };
  const again = replayRun(journal, incoming);
  const settle = (raw: unknown) => {
    const action = (raw as { action?: string }).action;
    if (action !== "accept") throw new Error(`refused: ${action}`);
    return { action };
  };
  const done = await again.run(async () => {
    const first = await again.request("elicitation/create", { message: "a" }, settle);
    await assert.rejects(again.request("elicitation/create", { message: "b" }, settle), /refused: nonsense/);
    return first;
  });
  assert.deepEqual(done, { kind: "done", result: { action: "accept" } });
  assert.deepEqual(journal.answers, { "elicit-1": { action: "accept" } }, "the settled answer only: no raw content, no refused answer");
});

test("ctx.step runs once; the journal names it (a digest), the ledger keeps its value; a named step whose value is gone is refused, not run again", async () => {
  let runs = 0;
  const journal = emptyJournal();
  const ledger = new CallLedger(memoryStore(), 60_000);
  const first = new ReplayRun(journal, ledgerSteps(journal, ledger));
  const outcome = await first.run(async () => {
    const v = await first.step("charge", () => `sk-${++runs}`);
    await ask(first, "then?");
    return v;
  });
  assert.equal(outcome.kind, "input_required");
  assert.deepEqual(journal.steps, [stepId("charge")]);
  assert.doesNotMatch(JSON.stringify(journal), /sk-1|charge/, "neither the value nor the name travels");
  const answered = { ...journal, answers: { "elicit-1": { action: "accept" } } };
  const second = new ReplayRun(answered, ledgerSteps(answered, ledger));
  const done = await second.run(async () => second.step("charge", () => `sk-${++runs}`));
  assert.deepEqual(done, { kind: "done", result: "sk-1" });
  assert.equal(runs, 1);
  // The same journal in a server whose ledger forgot the call (a restart without a durable store).
  const forgot = replayRun(structuredClone(answered));
  await assert.rejects(
    forgot.run(async () => forgot.step("charge", () => `sk-${++runs}`)),
    (e: unknown) => e instanceof StepLostError && /already ran for this tool call/.test((e as Error).message),
  );
  assert.equal(runs, 1, "the step did not run a second time");
  const bad = replayRun(emptyJournal());
  await assert.rejects(
    bad.run(async () => bad.step("fn", () => (() => 1) as never)),
    /must return JSON-serialisable data/,
  );
});
