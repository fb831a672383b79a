// The gateway's one line for an error on a connection (src/cli/gateway/error-line.ts): a message the SDK
// could not read is named by side, method and id where known, and what is wrong, bounded and inert.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { errorLine, malformedLine } from "../../src/cli/gateway/error-line.js";

const long = `\u001b]52;c;${"B".repeat(100_000)}\u0007`;

describe("errorLine", () => {
  test("a dropped message quoted whole by the SDK: its method and id, never its content", () => {
    const message = { jsonrpc: "2.0", id: 9, method: `tools/call${long}`, params: { secret: long } };
    const line = errorLine("server", new Error(`Unknown message type: ${JSON.stringify(message)}`));
    assert.match(
      line,
      /^a malformed message from the server was dropped \(request "tools\/call\\u001b\]52;c;B+…" \(\d+ characters\), id 9\): /,
    );
    assert.ok(line.length < 300 && !line.includes("\u001b") && !line.includes("secret"), line);
  });

  test("zod's issues: the closest shape's first issue, made inert", () => {
    const issues = [
      {
        code: "invalid_union",
        path: [],
        message: "Invalid input",
        errors: [
          [
            { code: "invalid_type", path: ["params"], message: `expected object ${long}` },
            { code: "x", path: [], message: "y" },
          ],
          [{ code: "invalid_type", path: ["result"], message: "expected object, received undefined" }],
        ],
      },
    ];
    const line = malformedLine("host", Object.assign(new Error(JSON.stringify(issues, null, 2)), { issues }));
    assert.equal(line, "a malformed message from the host was dropped: result: expected object, received undefined.");
    const cut = malformedLine("host", { issues: [{ path: ["params"], message: `expected object ${long}` }] })!;
    assert.ok(cut.length < 300 && !cut.includes("\u001b"), cut);
  });

  test("any other error: its first line, bounded", () => {
    assert.equal(malformedLine("host", new Error("write EPIPE")), undefined);
    assert.equal(errorLine("host", new Error(`write EPIPE\n${long}`)), "the connection to the host: write EPIPE");
  });
});
