// A test server whose tools exercise ctx.elicit and ctx.step, and a client that answers from a script.
import { McpServer } from "@modelcontextprotocol/server";
import type { Client } from "@modelcontextprotocol/client";
import * as z from "zod";
import { choice, form, multiChoice, text, yesNo } from "../../src/schema/index.js";
import { createElicitation, type ElicitationOptions } from "../../src/server/index.js";
import { jsonResult } from "./results.js";

export const bookingForm = form({
  confirmBooking: yesNo({ description: "Confirm the booking (Flights + Hotel = $3,000)" }),
  seatPreference: choice({ window: "Window", aisle: "Aisle", "no preference": "No preference" }).optional(),
  email: text({ title: "Email", format: "email" }).optional(),
  travelInsurance: yesNo({ default: false }).optional(),
});

export interface Counters {
  sideEffects: number;
  handlerRuns: number;
}

export function makeFactory(options: ElicitationOptions = {}) {
  const kit = createElicitation(options);
  const counters: Counters = { sideEffects: 0, handlerRuns: 0 };
  const factory = () => {
    const server = new McpServer({ name: "fixture-server", version: "1.2.3" });
    kit.registerTool(
      server,
      "book",
      { description: "Books a trip after confirmation", inputSchema: z.object({ city: z.string() }) },
      async ({ city }, ctx) => {
        counters.handlerRuns++;
        const answer = await ctx.elicit(`Confirm your ${city} trip`, bookingForm);
        if (answer.action !== "accept") return jsonResult({ action: answer.action, protocol: ctx.protocol });
        const seat: "window" | "aisle" | "no preference" | undefined = answer.content.seatPreference;
        return jsonResult({ action: "accept", content: answer.content, seat, protocol: ctx.protocol });
      },
    );
    kit.registerTool(server, "two_at_once", { description: "Asks two questions together" }, async (_args, ctx) => {
      const [a, b] = await Promise.all([
        ctx.elicit("Your name?", form({ name: text() })),
        ctx.elicit("Your phone?", form({ phone: text() })),
      ]);
      return jsonResult({ a, b });
    });
    kit.registerTool(server, "pay_then_ask", { description: "A side effect between two questions" }, async (_args, ctx) => {
      counters.handlerRuns++;
      const first = await ctx.elicit("Proceed?", form({ ok: yesNo() }));
      const receipt = await ctx.step("charge", async () => `receipt-${++counters.sideEffects}`);
      const second = await ctx.elicit("Rate us", form({ stars: text() }));
      return jsonResult({ first, receipt, second });
    });
    kit.registerTool(server, "pick_many", { description: "A multi-select form" }, async (_args, ctx) => {
      const r = await ctx.elicit("Pick toppings", form({ toppings: multiChoice(["cheese", "ham"], { minItems: 1 }) }));
      return jsonResult(r);
    });
    kit.registerTool(
      server,
      "wait",
      { description: "Waits with a short timeout", inputSchema: z.object({ timeoutMs: z.number() }) },
      async ({ timeoutMs }, ctx) => {
        const r = await ctx.elicit("Anyone there?", form({ ok: yesNo() }), { timeoutMs });
        return jsonResult(r);
      },
    );
    return server;
  };
  return { factory, counters, kit };
}

export type ElicitHandler = (params: Record<string, any>, ctx: any) => unknown | Promise<unknown>;

/** Answers `method` requests in turn from `script` (the last entry repeats); returns the params seen. */
export function answerInTurn(client: Client, method: "elicitation/create" | "sampling/createMessage", script: ElicitHandler[]) {
  const seen: Record<string, any>[] = [];
  client.setRequestHandler(method, async (request: { params: unknown }, ctx: unknown) => {
    seen.push(request.params as Record<string, any>);
    const next = script[Math.min(seen.length - 1, script.length - 1)]!;
    return (await next(request.params as Record<string, any>, ctx)) as never;
  });
  return seen;
}

/** Answers elicitation requests in turn from `script` (the last entry repeats). */
export const answerWith = (client: Client, script: ElicitHandler[]) => answerInTurn(client, "elicitation/create", script);

export const accept =
  (content: Record<string, unknown>): ElicitHandler =>
  () => ({ action: "accept", content });
