// ReplayRun on its own: how a handler's input requests are batched into rounds, answered from the
// journal, and refused when the handler asks something else or uses a key twice.
import { test } from "node:test";
import assert from "node:assert/strict";
import { compileForm } from "../../src/schema/compiled.js";
import { emptyJournal, ReplayMismatchError, ReplayRun, type Journal } from "../../src/server/replay.js";
import { sha256 } from "../../src/server/state.js";

const ask = (run: ReplayRun, message: string, key?: string) => run.request<{ action: string }>("elicitation/create", { message }, key);

test("requests made together go out in one round; the next run answers them from the journal", async () => {
  const run = new ReplayRun(emptyJournal());
  const outcome = await run.run(async () => Promise.all([ask(run, "a"), ask(run, "b")]));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  assert.deepEqual(Object.keys(outcome.inputRequests), ["elicit-1", "elicit-2"]);
  const next: Journal = { ...outcome.journal, answers: { "elicit-1": { action: "accept" }, "elicit-2": { action: "decline" } } };
  const again = new ReplayRun(next);
  const done = await again.run(async () => Promise.all([ask(again, "a"), ask(again, "b")]));
  assert.deepEqual(done, { kind: "done", result: [{ action: "accept" }, { action: "decline" }] });
});

test("a replayed handler that asks something else for a recorded key gets ReplayMismatchError", async () => {
  const run = new ReplayRun(emptyJournal());
  const outcome = await run.run(async () => ask(run, "Book Rome?"));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  const journal: Journal = { ...outcome.journal, answers: { "elicit-1": { action: "accept" } } };
  const changed = new ReplayRun(journal);
  await assert.rejects(
    changed.run(async () => ask(changed, "Book Paris?")),
    (e: unknown) => e instanceof ReplayMismatchError && /asked something different for "elicit-1"/.test(e.message),
  );
});

test("a form's question is fingerprinted by its encoding's digest; a state from before that (whole JSON) is still answered", async () => {
  const requestedSchema = compileForm({ type: "object", properties: { ok: { type: "boolean" } } }).encoded("2026-07-28");
  const params = { message: "Proceed?", requestedSchema, mode: "form" };
  const askForm = (run: ReplayRun) => run.request<{ action: string }>("elicitation/create", params);
  const run = new ReplayRun(emptyJournal());
  const outcome = await run.run(async () => askForm(run));
  assert.equal(outcome.kind, "input_required");
  if (outcome.kind !== "input_required") return;
  const legacy = sha256(`elicitation/create${JSON.stringify(params)}`).slice(0, 16);
  assert.notEqual(outcome.journal.asked["elicit-1"], legacy, "the form is not hashed as its whole JSON text");
  for (const asked of [outcome.journal.asked["elicit-1"]!, legacy]) {
    const again: ReplayRun = new ReplayRun({
      ...outcome.journal,
      asked: { "elicit-1": asked },
      answers: { "elicit-1": { action: "accept" } },
    });
    assert.deepEqual(await again.run(async () => askForm(again)), { kind: "done", result: { action: "accept" } });
  }
  const other = new ReplayRun({
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
  const run = new ReplayRun(emptyJournal());
  await assert.rejects(
    run.run(async () => Promise.all([ask(run, "a", "same"), ask(run, "b", "same")])),
    /Input key "same" is used twice in one tool call/,
  );
});

test("ctx.step runs once and is recorded; a later run gets the value without running it; non-JSON results are refused", async () => {
  let runs = 0;
  const journal = emptyJournal();
  const first = new ReplayRun(journal);
  const outcome = await first.run(async () => {
    const v = await first.step("charge", () => ++runs);
    await ask(first, "then?");
    return v;
  });
  assert.equal(outcome.kind, "input_required");
  assert.deepEqual(journal.steps, { charge: { value: 1 } });
  const second = new ReplayRun({ ...journal, answers: { "elicit-1": { action: "accept" } } });
  const done = await second.run(async () => second.step("charge", () => ++runs));
  assert.deepEqual(done, { kind: "done", result: 1 });
  assert.equal(runs, 1);
  const bad = new ReplayRun(emptyJournal());
  await assert.rejects(
    bad.run(async () => bad.step("fn", () => (() => 1) as never)),
    /must return JSON-serialisable data/,
  );
});
