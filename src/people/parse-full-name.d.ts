// Types for the untyped `parse-full-name` package (only what we use).
declare module 'parse-full-name' {
  export interface ParsedFullName {
    title: string;
    first: string;
    middle: string;
    last: string;
    nick: string;
    suffix: string;
    error: string[];
  }
  export function parseFullName(
    name: string,
    partToReturn?: 'all',
    fixCase?: -1 | 0 | 1 | boolean,
    stopOnError?: 0 | 1 | boolean,
    useLongLists?: 0 | 1 | boolean,
  ): ParsedFullName;
}
