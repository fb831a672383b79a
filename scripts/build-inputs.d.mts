// Types of build-inputs.mjs, for the tests that use dist/ when it is the build of the current sources.
export declare const STAMP: string;
export declare function inputsHash(): string;
export declare function distIsCurrent(): boolean;
