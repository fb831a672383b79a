// Types of build-web.mjs, for the tests and the bench that build the bundles the same way `npm run build` does.
export declare const WEB_ENTRIES: { in: string; out: string }[];
export declare function buildWeb(options?: {
  outdir?: string;
  entries?: { in: string; out: string }[];
}): Promise<{ file: string; bytes: number }[]>;
export declare function embedPageScripts(webDir?: string, pagesDir?: string): void;
