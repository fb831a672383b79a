// Types of scripts/sync-examples.mjs, for the tests that import it.
export declare const root: string;
export declare function regionsOf(text: string, file?: string): Map<string, string>;
export declare function withoutMarkers(text: string): string;
export declare function exampleReader(base?: string): (ref: string) => string;
export interface StaleBlock {
  line: number;
  ref: string;
}
export declare function syncSource(text: string, read: (ref: string) => string, file?: string): { text: string; stale: StaleBlock[] };
export declare function syncPage(text: string, read: (ref: string) => string): { text: string; stale: StaleBlock[] };
export declare function syncAll(options?: { check?: boolean; base?: string }): string[];
