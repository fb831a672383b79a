// What serveHttp's DPoP check keeps, on a clock the test sets: the used `jti`s of a server without a
// store stay within their cap however many proofs come (a full map refuses new proofs, never forgets a
// live one, and takes new ones again as the old leave the window), and nonces made from one key ring
// are accepted by every holder of the ring, rotate, expire, and survive a rotation of the ring.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { createHmac, randomBytes } from "node:crypto";
import { MemoryJtis } from "../../../src/server/auth/dpop-jtis.js";
import { DpopNonces, dpopNonceRing } from "../../../src/server/auth/dpop-nonces.js";
import { createDpopVerifier } from "../../../src/server/auth/dpop.js";

const T0 = 1_800_000_000_000;

describe("the used jtis in memory", () => {
  test("filled ten times past its cap, the map holds the cap; a full map refuses new jtis and still knows the live ones", () => {
    const jtis = new MemoryJtis(1000);
    const ttlMs = 125_000;
    let accepted = 0;
    let full = 0;
    for (let i = 0; i < 10_000; i++) {
      const spent = jtis.add(`jti-${i}`, ttlMs, T0 + i); // a proof a millisecond
      if (spent === "spent") accepted++;
      else if (typeof spent === "object") {
        full++;
        // The oldest entry (made at T0) leaves at T0 + ttlMs.
        assert.equal(spent.full.retryAfterS, Math.ceil((T0 + ttlMs - (T0 + i)) / 1000));
      }
      assert.ok(jtis.size <= 1000, `size ${jtis.size} after ${i + 1}`);
    }
    assert.equal(accepted, 1000);
    assert.equal(full, 9000);
    for (const i of [0, 500, 999]) assert.equal(jtis.add(`jti-${i}`, ttlMs, T0 + 10_000), "replayed");
    // Once the oldest leave the window, new proofs are taken again, and the map stays within its cap.
    const later = T0 + ttlMs + 100;
    assert.equal(jtis.add("jti-new", ttlMs, later), "spent");
    assert.equal(jtis.size, 1000 - 100);
    // An expired jti is forgotten (its proof's iat is outside the window by then) and may come again.
    assert.equal(jtis.add("jti-0", ttlMs, later), "spent");
  });
});

describe("nonces from a key ring", () => {
  const lifetimeMs = 60_000;

  test("two members holding one ring accept each other's nonces; a member with another key does not", () => {
    const ring = [randomBytes(32)];
    const a = new DpopNonces(ring, lifetimeMs);
    const b = new DpopNonces(ring, lifetimeMs);
    const other = new DpopNonces([randomBytes(32)], lifetimeMs);
    const nonce = a.current(T0);
    assert.equal(b.valid(nonce, T0 + 1000), true);
    assert.equal(other.valid(nonce, T0 + 1000), false);
    const [time] = nonce.split(".");
    for (const forged of [`${time}.forged`, `${time}`, "", `zzzzzzzzzzzzz.${nonce.split(".")[1]}`, 42, undefined])
      assert.equal(b.valid(forged, T0), false, String(forged));
  });

  test("a nonce changes every second and expires after the proof window", () => {
    const nonces = new DpopNonces([randomBytes(32)], lifetimeMs);
    const nonce = nonces.current(T0);
    assert.notEqual(nonces.current(T0 + 1000), nonce);
    assert.equal(nonces.valid(nonce, T0 + lifetimeMs - 1000), true);
    assert.equal(nonces.valid(nonce, T0 + lifetimeMs + 1000), false);
    assert.equal(nonces.valid(nonces.current(T0 + 10_000), T0), false, "a nonce from the future");
  });

  test("a rotated ring (new key first) makes nonces with the new key and still accepts the old key's", () => {
    const [old, fresh] = [randomBytes(32), randomBytes(32)];
    const before = new DpopNonces([old], lifetimeMs);
    const rotated = new DpopNonces([fresh, old], lifetimeMs);
    assert.equal(rotated.valid(before.current(T0), T0), true);
    assert.equal(before.valid(rotated.current(T0), T0), false, "made with the new key");
    assert.equal(new DpopNonces([fresh], lifetimeMs).valid(rotated.current(T0), T0), true);
  });

  test("the ring: auth.dpop.key, else $MCP_ELICIT_STATE_KEY, else a key of this process alone; a bad key names its source", () => {
    const saved = process.env.MCP_ELICIT_STATE_KEY;
    try {
      const key = randomBytes(32);
      assert.deepEqual(dpopNonceRing(key.toString("base64url")), { ring: [key], shared: true });
      const [newest, older] = [randomBytes(32), randomBytes(32)];
      process.env.MCP_ELICIT_STATE_KEY = `${newest.toString("hex")}, ${older.toString("base64url")}`;
      assert.deepEqual(dpopNonceRing(undefined), { ring: [newest, older], shared: true });
      delete process.env.MCP_ELICIT_STATE_KEY;
      assert.equal(dpopNonceRing(undefined).shared, false);
      assert.throws(() => dpopNonceRing("short"), /^TypeError: auth\.dpop\.key: .*32 bytes/);
      process.env.MCP_ELICIT_STATE_KEY = "short";
      assert.throws(() => dpopNonceRing(undefined), /^TypeError: \$MCP_ELICIT_STATE_KEY: .*32 bytes/);
      // Read only for nonces: a server that asks for none starts whatever the variable holds.
      assert.doesNotThrow(() => createDpopVerifier({}));
      assert.throws(() => createDpopVerifier({ nonce: true }), /\$MCP_ELICIT_STATE_KEY/);
    } finally {
      if (saved === undefined) delete process.env.MCP_ELICIT_STATE_KEY;
      else process.env.MCP_ELICIT_STATE_KEY = saved;
    }
  });

  test("the nonce key is derived from the ring with a label of its own, never the ring's key itself", () => {
    const root = randomBytes(32);
    const [time, mac] = new DpopNonces([root], lifetimeMs).current(T0).split(".");
    assert.notEqual(createHmac("sha256", root).update(time!).digest("base64url"), mac);
  });
});
