// App-rendered elicitation (SEP-3118) on the wire, with real SDK clients in memory on 2025-11-25 and
// 2026-07-28: with `appElicitation: true` the server declares the UI extension's `elicitation`, and a form
// request to a client that declares the same (form elicitation, the MCP App MIME type, the nested
// `elicitation`) names the kit's form app in `_meta.ui.resourceUri`; the answer is checked as any form answer.
// Without the option, or to a client that renders apps but not elicitations, the request is the plain form.
import { describe, test } from "node:test";
import assert from "node:assert/strict";
import { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";
import { createElicitation, type ElicitationOptions } from "../../../src/server/kit/elicitation.js";
import { form, text, yesNo } from "../../../src/schema/builders.js";
import type { ProtocolRevision } from "../../../src/schema/types.js";
import { APP_MIME_TYPE, FORM_APP_URI, UI_EXTENSION } from "../../../src/server/apps/ui-extension.js";
import { clientFor, connect, elicitationsOn } from "../../helpers/mcp.js";

/** A host that renders form elicitations as apps (Inspector 2.12's web client declares this). */
const SEP_HOST = { elicitation: { form: {}, url: {} }, extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE], elicitation: {} } } };
/** A host that renders apps and asks natively, but not through apps. */
const APPS_AND_FORMS = { elicitation: { form: {} }, extensions: { [UI_EXTENSION]: { mimeTypes: [APP_MIME_TYPE] } } };

function server(options: ElicitationOptions) {
  const elicitation = createElicitation(options);
  return () => {
    const s = new McpServer({ name: "sep", version: "1.0.0" });
    elicitation.registerTool(
      s,
      "confirm",
      { description: "Confirm something", inputSchema: z.object({ what: z.string() }) },
      async ({ what }, ctx) => {
        const answer = await ctx.elicit(`Confirm ${what}?`, form({ ok: yesNo(), note: text().optional() }), {
          validate: (c) => (c.note === "bad" ? { note: "not that note" } : undefined),
        });
        return {
          content: [
            {
              type: "text",
              text: answer.action === "accept" ? `ok=${answer.content.ok} note=${answer.content.note ?? ""}` : answer.action,
            },
          ],
        };
      },
    );
    return s;
  };
}

const REVISIONS: ProtocolRevision[] = ["2025-11-25", "2026-07-28"];

for (const revision of REVISIONS) {
  describe(`app-rendered elicitation on ${revision}`, () => {
    test("with the option, a host that declares UI elicitation gets the form app's URI on the form, and its answer is checked", async () => {
      const client = clientFor(revision, SEP_HOST);
      const answers = [
        { ok: true, note: "bad" },
        { ok: true, note: "fine" },
      ];
      client.setRequestHandler("elicitation/create", async () => ({ action: "accept", content: answers.shift()! }));
      const conn = await connect(client, server({ appElicitation: true }), revision, "memory");
      try {
        const ui = (client.getServerCapabilities() as { extensions?: Record<string, any> }).extensions?.[UI_EXTENSION];
        assert.deepEqual(ui?.elicitation, {}, "the server declares the UI extension's elicitation");
        const result = await client.callTool({ name: "confirm", arguments: { what: "the trip" } });
        assert.equal((result.content as { text: string }[])[0]!.text, "ok=true note=fine");
        const asked = elicitationsOn(conn.wire);
        assert.equal(asked.length, 2, "the refused note is asked again");
        for (const params of asked) assert.equal(params._meta?.ui?.resourceUri, FORM_APP_URI);
        assert.match(asked[1]!.message, /not that note/);
        const resource = await client.readResource({ uri: FORM_APP_URI });
        assert.equal(resource.contents[0]!.mimeType, APP_MIME_TYPE);
      } finally {
        await conn.close();
      }
    });

    test("a host that shows apps but does not render elicitations as apps gets the plain form", async () => {
      const client = clientFor(revision, APPS_AND_FORMS);
      client.setRequestHandler("elicitation/create", async () => ({ action: "decline" }));
      const conn = await connect(client, server({ appElicitation: true }), revision, "memory");
      try {
        const result = await client.callTool({ name: "confirm", arguments: { what: "x" } });
        assert.equal((result.content as { text: string }[])[0]!.text, "decline");
        const [params] = elicitationsOn(conn.wire);
        assert.equal(params?._meta?.ui, undefined);
      } finally {
        await conn.close();
      }
    });

    test("without the option (the default), the server declares nothing and the form names no app", async () => {
      const client = clientFor(revision, SEP_HOST);
      client.setRequestHandler("elicitation/create", async () => ({ action: "cancel" }));
      const conn = await connect(client, server({}), revision, "memory");
      try {
        const ui = (client.getServerCapabilities() as { extensions?: Record<string, any> }).extensions?.[UI_EXTENSION];
        assert.equal(ui?.elicitation, undefined);
        await client.callTool({ name: "confirm", arguments: { what: "x" } });
        const [params] = elicitationsOn(conn.wire);
        assert.ok(params, "the form was asked");
        assert.equal(params._meta?.ui, undefined);
      } finally {
        await conn.close();
      }
    });
  });
}
