// The error a source's description is refused with, in a module of its own: data-set kinds throw
// it from their locator rule, and the registry (which lists the kinds) re-exports it.

/** A source the caller described wrongly: the message names the field. */
export class SourceInputError extends Error {}
