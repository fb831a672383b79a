// Bookings and payments on a KeyValueStore (`elicit serve travel --store FILE`), so a server restarted
// in the middle of a payment still knows the booking it is paying for.
import type { KeyValueStore } from "../../store/types.js";
import type { Booking, BookingStore } from "./bookings.js";
import type { PaymentRecord, PaymentStore } from "./payment.js";

/** How long a demo booking is kept. */
const KEEP_MS = 30 * 24 * 3600_000;

function jsonStore<T>(store: KeyValueStore, prefix: string) {
  return {
    async get(reference: string): Promise<T | undefined> {
      const text = await store.get(prefix + reference);
      return text === undefined ? undefined : (JSON.parse(text) as T);
    },
    set: (reference: string, value: T) => store.set(prefix + reference, JSON.stringify(value), KEEP_MS),
  };
}

export function durableTravelStores(store: KeyValueStore): { bookings: BookingStore; payments: PaymentStore } {
  return { bookings: jsonStore<Booking>(store, "travel:booking:"), payments: jsonStore<PaymentRecord>(store, "travel:payment:") };
}
