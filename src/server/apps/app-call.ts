// The way of asking of an app-answered call (inputs/way.ts): a host that shows MCP Apps but cannot be
// asked gets each round as a result the kit's form app renders (app-calls.ts), over the rounds' journal,
// sealed state and call ledger (rounds/round-call.ts) with the app's delivery (app-delivery.ts).
import type { CallAnswer, KitTool, ToolCall, WayOfAsking } from "../inputs/way.js";
import type { RoundCall } from "../rounds/round-call.js";
import { AppAnswers, type AppAnswersOptions } from "./app-calls.js";
import { appDelivery } from "./app-delivery.js";

export class AppCall implements WayOfAsking {
  private readonly answers: AppAnswers;

  constructor(
    private readonly rounds: RoundCall,
    options: AppAnswersOptions,
  ) {
    this.answers = new AppAnswers(options);
  }

  register({ server, name }: KitTool): void {
    this.answers.add(server, name);
  }

  matches({ tool, ctx, protocol }: ToolCall): boolean {
    return this.answers.answers(tool.server, ctx, protocol);
  }

  run(call: ToolCall): Promise<CallAnswer> {
    const { tool, ctx, protocol, guarded } = call;
    // Each round ends the call with the form app; the handler's context is a round's, on the call's revision.
    return this.answers.run(tool.server, tool.name, guarded?.args ?? {}, () =>
      this.rounds.run(call, undefined, (run) => appDelivery(tool.server, ctx, run, protocol)),
    );
  }
}
