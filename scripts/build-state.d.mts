/** Types of build-state.mjs (plain JavaScript, so the bin can run it before anything is compiled). */
export declare const ROOT: string;
export declare const DIST: string;
export declare const STAMP: string;
export declare const INPUTS: readonly string[];
export declare function builtAt(root?: string): number | undefined;
export declare function distIsFresh(root?: string): boolean;
