export class InsufficientCreditsError extends Error {
  constructor(
    readonly cost: number,
    readonly balance: number,
    /** True when refused before any work, because the balance is below the call's smallest charge. */
    readonly minimumOnly = false,
  ) {
    super('insufficient credits');
  }
}

/** A charge that would take a key's spend in its cap's period (a UTC day or month) above the cap. */
export class SpendCapReachedError extends Error {
  constructor(
    readonly period: 'day' | 'month',
    readonly capUnits: number,
    readonly spentUnits: number,
    readonly cost: number,
  ) {
    super('spend cap reached');
  }
}
