// Errors of bulk jobs, raised by the service and by the readers of a submitted list alike.

/** A lifecycle call the job's state does not allow (pausing a finished job, restarting a running one). */
export class BulkStateError extends Error {}

/** A submitted list (or one of its fields) that cannot be a job; `field` points at it. */
export class BulkInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(message);
  }
}
