export class InsufficientCreditsError extends Error {
  constructor(
    readonly cost: number,
    readonly balance: number,
  ) {
    super('insufficient credits');
  }
}
