// Its own module so that source kinds can refuse a locator without importing the registry (which
// imports the kinds).

/** A source the caller described wrongly: the message names the field. */
export class SourceInputError extends Error {}
