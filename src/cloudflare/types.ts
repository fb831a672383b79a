// The few shapes of Cloudflare's Durable Objects this entry uses, written structurally: mcp-elicit depends on
// no Cloudflare package, and a Worker's own types (@cloudflare/workers-types, wrangler's) fit these.

/** A Durable Object's id: `DurableObjectId`. */
export interface DurableObjectIdLike {
  toString(): string;
}

/** What a Worker calls a Durable Object through: `DurableObjectStub` (only its fetch is used). */
export interface DurableObjectStubLike {
  fetch(request: Request): Promise<Response>;
}

/** A Durable Object namespace binding: `DurableObjectNamespace`. */
export interface DurableObjectNamespaceLike {
  newUniqueId(): DurableObjectIdLike;
  idFromString(id: string): DurableObjectIdLike;
  get(id: DurableObjectIdLike): DurableObjectStubLike;
}

/** What a Durable Object class is constructed with: `DurableObjectState` (only its id is used). */
export interface DurableObjectStateLike {
  readonly id: DurableObjectIdLike;
}
