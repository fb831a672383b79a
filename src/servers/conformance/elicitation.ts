// The elicitation tools, on every revision through the kit: live requests on 2025 eras, sealed rounds on 2026-07-28.
import type { McpServer } from "@modelcontextprotocol/server";
import * as z from "zod";

import type { Elicitation } from "../../server/kit/elicitation.js";
import { colorForm, confirmForm, describe, defaultsForm, enumsForm, nameForm, say, userForm } from "./fixtures.js";

export function registerElicitationTools(s: McpServer, kit: Elicitation): void {
  // ---- elicitation: our kit, every revision ----
  kit.registerTool(
    s,
    "test_elicitation",
    { description: "Asks the user for a username and email", inputSchema: z.object({ message: z.string() }) },
    async ({ message }, ctx) => say(`User response: ${describe(await ctx.elicit(message, userForm))}`),
  );
  kit.registerTool(
    s,
    "test_elicitation_sep1034_defaults",
    { description: "Elicitation with a default on every field type (SEP-1034)" },
    async (_args, ctx) =>
      say(`Elicitation completed: ${describe(await ctx.elicit("Please review and update the form fields with defaults", defaultsForm))}`),
  );
  kit.registerTool(
    s,
    "test_elicitation_sep1330_enums",
    { description: "Elicitation with every enum shape (SEP-1330)" },
    async (_args, ctx) =>
      say(`Elicitation completed: ${describe(await ctx.elicit("Please select options from the enum fields", enumsForm))}`),
  );

  // ---- 2026-07-28 input_required (MRTR) tools whose only input is elicitation: our kit too ----
  kit.registerTool(
    s,
    "test_input_required_result_elicitation",
    { description: "Asks for the user's name (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("What is your name?", nameForm, { key: "user_name" });
      return answer.action === "accept"
        ? say(`Hello, ${answer.content.name}!`)
        : { ...say(`No name given (${answer.action})`), isError: true };
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_request_state",
    { description: "Asks for a confirmation; the answer rides on requestState (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmForm);
      return say(`state-ok: requestState round-tripped, ${describe(answer)}`);
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_tampered_state",
    { description: "Asks for a confirmation; tampered requestState is refused (SEP-2322)" },
    async (_args, ctx) => {
      const answer = await ctx.elicit("Please confirm", confirmForm);
      return say(`integrity-ok: ${describe(answer)}`);
    },
  );
  kit.registerTool(
    s,
    "test_input_required_result_multi_round",
    { description: "Asks two questions, one per round (SEP-2322)" },
    async (_args, ctx) => {
      const name = await ctx.elicit("Step 1: What is your name?", nameForm);
      if (name.action !== "accept") return say(`Stopped at step 1 (${name.action})`);
      const color = await ctx.elicit("Step 2: What is your favorite color?", colorForm);
      if (color.action !== "accept") return say(`Stopped at step 2 (${color.action})`);
      return say(`Multi-round complete for ${name.content.name} who likes ${color.content.color}`);
    },
  );
}
