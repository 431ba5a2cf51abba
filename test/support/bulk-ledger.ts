/** The list positions a bulk job's ledger row names: request id `<job id>:<ranges>`, ranges like `0-2,5,7-9`. */
export function positionsOfBulkCharge(jobId: string, requestId: string): number[] {
  if (!requestId.startsWith(`${jobId}:`)) throw new Error(`${requestId} is not a charge of ${jobId}`);
  const positions: number[] = [];
  for (const part of requestId.slice(jobId.length + 1).split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part);
    if (!match) throw new Error(`${requestId}: "${part}" is not a position or a range`);
    const first = Number(match[1]);
    const last = Number(match[2] ?? match[1]);
    for (let p = first; p <= last; p++) positions.push(p);
  }
  return positions;
}
