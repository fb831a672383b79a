// oidc-provider's own in-memory storage, which the package ships but does not declare a type for.
// Passing it explicitly (rather than leaving `adapter` unset) keeps the provider from printing its
// "development-only adapter" warning on every start: losing everything on exit is what the local
// provider wants.
declare module "oidc-provider/lib/adapters/memory_adapter.js" {
  import type { AdapterFactory } from "oidc-provider";
  export function createMemoryAdapter(clockTolerance?: number): AdapterFactory;
}
