// The ids of the requests a member sends on a session it adopted. Its server numbers them from 0, as
// the dead member's did, so the question a call run again asks would reach the client under the id of
// the question the person was answering there: a late answer to that one would be taken as the answer
// to the new one (and the client would hold two requests with one id). So on an adopted session each
// request leaves under an id of this adoption's own ("<tag>-<n>", a string the dead member never used),
// answers come back to the server under its id, and an answer to any other id is refused.
import { randomBytes } from "node:crypto";
import type { RequestId } from "@modelcontextprotocol/server";
import { cancelledId, isRequest, isResponse, type Message } from "./session.js";

export class AdoptedRequestIds {
  /** Unique to this adoption, so a member that adopts the session later uses other ids again. */
  private readonly tag = randomBytes(6).toString("hex");
  /** Requests in flight: the client's id for each of the server's, and back. */
  private readonly toWire = new Map<RequestId, string>();
  private readonly fromWire = new Map<string, RequestId>();

  /** A message the server sends, with its request's id (or the id its cancellation names) as the client sees it. */
  outbound(message: Message): Message {
    if (isRequest(message)) {
      const id = message.id as RequestId;
      const wire = `${this.tag}-${String(id)}`;
      this.toWire.set(id, wire);
      this.fromWire.set(wire, id);
      return { ...message, id: wire };
    }
    const cancelled = cancelledId(message);
    const wire = cancelled === undefined ? undefined : this.toWire.get(cancelled);
    if (wire === undefined) return message;
    this.forget(wire);
    return { ...message, params: { ...(message.params as object), requestId: wire } };
  }

  /**
   * A message from the client: an answer carries back the server's id; an answer to an id this
   * adoption did not send (the dead member's question answered late) is refused: undefined.
   */
  inbound(message: Message): Message | undefined {
    if (!isResponse(message)) return message;
    const id = typeof message.id === "string" ? this.fromWire.get(message.id) : undefined;
    if (id === undefined) return undefined;
    this.forget(message.id as string);
    return { ...message, id };
  }

  /** A request that never reached the client: its id is let go. */
  unsent(message: Message): void {
    if (isRequest(message) && typeof message.id === "string") this.forget(message.id);
  }

  private forget(wire: string): void {
    const id = this.fromWire.get(wire);
    this.fromWire.delete(wire);
    if (id !== undefined) this.toWire.delete(id);
  }
}
