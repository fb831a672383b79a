// The URL kit's credential vault: what ctx.connect and ctx.collect kept for a person, sealed with the kit's
// key, listed and revoked by principal. Run: npx tsx examples/url-vault.ts
import { randomBytes } from "node:crypto";
import { createUrlKit } from "mcp-elicit/server";
import { sqliteStore } from "mcp-elicit/store";

// A durable store needs a key kept across restarts (here a fresh one; in production, from a secret store).
const store = sqliteStore(":memory:");
const urlKit = createUrlKit({ store, vaultKey: randomBytes(32), identity: "loopback" });
const alice = { issuer: "https://accounts.example.com", sub: "alice" };

await urlKit.vault.put(alice, "weather-api-key", { apiKey: "wk_live_123" });
console.log((await urlKit.vault.list(alice)).map((e) => `${e.name} (${e.kind})`)); // -> [ 'weather-api-key (secret)' ]
console.log(await urlKit.vault.get(alice, "weather-api-key")); // -> { apiKey: 'wk_live_123' }
console.log(await urlKit.vault.get({ ...alice, sub: "bob" }, "weather-api-key")); // -> undefined
// An OAuth account connected with ctx.connect: a valid access token, refreshed when it has expired.
console.log(await urlKit.vault.token(alice, "skymiles")); // -> undefined
console.log(await urlKit.vault.revoke(alice, "weather-api-key")); // -> true
await urlKit.close();
await store.close(); // a store you give the kit is yours to close
