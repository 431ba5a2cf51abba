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
