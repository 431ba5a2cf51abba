import { InvalidInputError } from '../platform/invalid-input.ts';
import { InsufficientCreditsError, SpendCapReachedError } from '../billing/errors.ts';
import { LeaseLostError } from '../billing/idempotency.ts';
import { unitsToCredits } from '../billing/units.ts';
import { AppError } from '../operations/errors.ts';

/**
 * The one mapping from the domains' errors to HTTP answers (the errors plugin applies it to
 * anything a route or plugin throws). Undefined: not a domain error.
 */
export function domainErrorToHttp(error: unknown): AppError | undefined {
  if (error instanceof InvalidInputError) {
    return new AppError(400, 'invalid_request', error.message, [{ field: `/${error.field}`, message: error.message }]);
  }
  if (error instanceof InsufficientCreditsError) {
    return new AppError(
      402,
      'insufficient_credits',
      error.minimumOnly
        ? `Insufficient credits: this call costs at least ${unitsToCredits(error.cost)} credits and the balance is ${unitsToCredits(error.balance)}.`
        : `Insufficient credits: this call costs ${unitsToCredits(error.cost)} credits and the balance is ${unitsToCredits(error.balance)}.`,
    );
  }
  if (error instanceof SpendCapReachedError) {
    const per = error.period === 'day' ? 'UTC day' : 'UTC month';
    return new AppError(
      402,
      'spend_cap_reached',
      `Spend cap reached: this key may spend at most ${unitsToCredits(error.capUnits)} credits per ${per}; ` +
        `${unitsToCredits(error.spentUnits)} are spent and this call costs ${unitsToCredits(error.cost)}. ` +
        `Nothing was charged; the cap resets at the start of the next ${per}, or the operator can raise it.`,
    );
  }
  if (error instanceof LeaseLostError) {
    return new AppError(
      409,
      'idempotency_in_flight',
      'A retry of this request took over its Idempotency-Key; this attempt was not charged.',
    );
  }
  return undefined;
}
