/** True when root/dist was built from the sources as they are now. */
export function buildIsFresh(root: string): boolean;
