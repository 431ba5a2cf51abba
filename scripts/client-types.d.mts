/** Where the generated types live. */
export declare const CLIENT_TYPES_FILE: string;
/** The generated types' source text for the served OpenAPI document. */
export declare function clientTypesSource(): Promise<string>;
