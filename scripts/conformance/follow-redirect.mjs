#!/usr/bin/env node
// A stand-in browser for the conformance suite's auth scenarios, whose authorization servers sign
// in at once and redirect without a page: elicit runs it through the BROWSER environment variable
// (`node follow-redirect.mjs URL`), and it follows the redirects as a browser would, ending at
// elicit's loopback callback. Plain JavaScript: started once per sign-in.
const start = process.argv[2];
if (!start) {
  console.error("usage: follow-redirect.mjs URL");
  process.exit(2);
}
let url = new URL(start);
for (let hop = 0; hop < 10; hop++) {
  const response = await fetch(url, { redirect: "manual" });
  const location = response.headers.get("location");
  await response.body?.cancel();
  if (response.status < 300 || response.status >= 400 || !location) process.exit(response.ok ? 0 : 1);
  url = new URL(location, url);
}
console.error("follow-redirect: too many redirects");
process.exit(1);
