// The payment checks of the travel server's pay_for_booking (the hosted form sends only lengths-checked
// text; these decide). Each refusal names what is wrong; only published test cards pass.
import { test } from "node:test";
import assert from "node:assert/strict";
import { checkCard, luhnValid, TEST_CARDS } from "../../src/servers/travel/payment.js";

const NOW = new Date("2026-06-01T00:00:00Z");
const card = (over: Partial<Parameters<typeof checkCard>[0]> = {}) => ({
  cardNumber: "4242 4242 4242 4242",
  expiry: "12/34",
  cvc: "123",
  nameOnCard: "Ana Garcia",
  ...over,
});

test("every listed test card passes the Luhn check; one changed digit fails it", () => {
  for (const number of Object.keys(TEST_CARDS)) {
    assert.equal(luhnValid(number), true, number);
    const last = Number(number.at(-1));
    assert.equal(luhnValid(number.slice(0, -1) + String((last + 1) % 10)), false, `${number} with its last digit changed`);
  }
  assert.equal(luhnValid("42424242"), false, "too short for a card");
  assert.equal(luhnValid("4242a24242424242"), false, "not digits");
});

test("a test card is accepted with its brand and last four digits; spaces and dashes are allowed", () => {
  assert.deepEqual(checkCard(card(), NOW), { brand: "Visa", last4: "4242" });
  assert.deepEqual(checkCard(card({ cardNumber: "5555-5555-5555-4444", expiry: "06/2026", cvc: "1234" }), NOW), {
    brand: "Mastercard",
    last4: "4444",
  });
});

test("each refusal says what is wrong", () => {
  const problem = (over: Parameters<typeof card>[0]) => (checkCard(card(over), NOW) as { problem?: string }).problem;
  assert.match(problem({ cardNumber: "4242 4242 4242 424x" })!, /only hold digits, spaces and dashes/);
  assert.match(problem({ cardNumber: "4242 4242 4242 4241" })!, /not valid \(its check digit does not match\)/);
  // A Luhn-valid number that is no published test card: a real card is never taken by the demo.
  assert.match(problem({ cardNumber: "4111 1111 1111 1129" })!, /test cards only/);
  assert.match(problem({ expiry: "13/30" })!, /MM\/YY/);
  assert.match(problem({ expiry: "1230" })!, /MM\/YY/);
  assert.match(problem({ expiry: "05/26" })!, /has expired/);
  assert.equal(problem({ expiry: "06/26" }), undefined, "good through the end of its month");
  assert.match(problem({ cvc: "12a" })!, /3 or 4 digits/);
  assert.match(problem({ nameOnCard: "   " })!, /name on the card is missing/);
});
