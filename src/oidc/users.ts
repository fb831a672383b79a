// The provider's accounts: their shape and the demo ones used when none are given. Apart from openid-provider.ts
// so that the sign-in steps (interactions.ts), which the provider loads, read them without importing it back.

/** An account of the provider: what a person types on its sign-in page. */
export interface DemoUser {
  id: string;
  password: string;
  /** Shown on the consent page and given as the `name` claim. */
  name?: string;
}

export const DEFAULT_USERS: readonly DemoUser[] = [
  { id: "demo", password: "demo", name: "Demo User" },
  { id: "alice", password: "alice", name: "Alice" },
  { id: "bob", password: "bob", name: "Bob" },
];
