/** Types of size.mjs, for the test that runs the same measurement. */
export declare const LIMIT_BYTES: number;
export declare function measure(): Promise<{ minified: number; gzip: number; limit: number; forbidden: string[]; inputs: string[] }>;
