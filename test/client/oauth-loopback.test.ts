// The sign-in loopback listener over real HTTP on 127.0.0.1: requests that are not the redirect of
// the sign-in it waits for (a wrong or missing state, no code and no error), which any web page can
// send, get a 400 page and leave the wait going; the matching redirect ends it, with its code or,
// for an error redirect, with a LoginError.
import { test } from "node:test";
import assert from "node:assert/strict";
import { startLoopback, type Loopback } from "../../src/client/oauth/loopback.js";
import { LoginError } from "../../src/client/index.js";

const STATE = "the-state-this-client-sent-0123456789abcdef";

/** Starts a listener and a wait for STATE; `settled()` says whether the wait has ended yet. */
async function waiting(): Promise<{ loopback: Loopback; wait: Promise<URLSearchParams>; settled: () => Promise<boolean> }> {
  const loopback = await startLoopback();
  const wait = loopback.expect(STATE, { timeoutMs: 60_000, what: "the test sign-in" });
  wait.catch(() => {}); // looked at by each test; not an unhandled rejection meanwhile
  const pending = Symbol("pending");
  // `wait` is raced first, so when it has already settled its outcome comes before `pending`.
  const settled = () =>
    Promise.race([wait, Promise.resolve(pending)]).then(
      (value) => value !== pending,
      () => true,
    );
  return { loopback, wait, settled };
}

const hit = async (loopback: Loopback, query: Record<string, string>) => {
  const response = await fetch(`${loopback.redirectUrl}?${new URLSearchParams(query)}`);
  return { status: response.status, csp: response.headers.get("content-security-policy"), body: await response.text() };
};

test("a wrong or missing state, or neither code nor error, gets 400 and the wait goes on; the real redirect then ends it", async () => {
  const { loopback, wait, settled } = await waiting();
  try {
    const refused: Array<Record<string, string>> = [
      { state: "not-the-state", code: "attacker-code" },
      { state: "not-the-state", error: "access_denied" },
      { code: "attacker-code" },
      {},
      { state: STATE },
    ];
    for (const query of refused) {
      const answer = await hit(loopback, query);
      assert.equal(answer.status, 400, JSON.stringify(query));
      assert.equal(answer.csp, "default-src 'none'");
      assert.doesNotMatch(answer.body, /attacker-code|not-the-state/);
      assert.equal(await settled(), false, `the wait ended after ${JSON.stringify(query)}`);
    }
    const good = await hit(loopback, { state: STATE, code: "the-real-code", iss: "https://auth.example.test" });
    assert.equal(good.status, 200);
    const params = await wait;
    assert.equal(params.get("code"), "the-real-code");
    assert.equal(params.get("state"), STATE);
    // One use: a later request finds nothing waiting.
    assert.equal((await hit(loopback, { state: STATE, code: "again" })).status, 410);
  } finally {
    await loopback.close();
  }
});

test("an error redirect with the right state still ends the wait, as a LoginError naming the OAuth error", async () => {
  const { loopback, wait } = await waiting();
  try {
    assert.equal((await hit(loopback, { state: "not-the-state", code: "attacker-code" })).status, 400);
    assert.equal((await hit(loopback, { state: STATE, error: "access_denied" })).status, 400);
    await assert.rejects(wait, (error: unknown) => {
      assert.ok(error instanceof LoginError);
      assert.equal(error.reason, "error-redirect");
      assert.equal(error.oauthError, "access_denied");
      return true;
    });
  } finally {
    await loopback.close();
  }
});
