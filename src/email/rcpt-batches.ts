// Addresses of one domain asked at the same time share one SMTP transaction: MAIL FROM once, then
// a RCPT TO for each (RFC 5321 lets a server take at least 100 per transaction), each answer read
// on its own. A batch takes new addresses until its transaction starts, so while a host's
// connections are busy the addresses waiting for it gather into one transaction. A host that
// answers "too many recipients" gets fewer from then on, and the addresses it did not take go
// into the next transaction.
import type { Conversation, RcptResult, SmtpProber } from './prober.ts';

interface Batch {
  addresses: string[];
  /** The domain's catch-all probe address, asked first when any member wants it. */
  probe: string | null;
  started: boolean;
  /** Members still waiting for an answer: the transaction is given up only when none is. */
  waiting: number;
  stop: AbortController;
  results: Promise<RcptResult[]>;
}

export interface BatchAnswer {
  target: RcptResult;
  /** The catch-all probe's answer, when it was asked. */
  probe: RcptResult | null;
}

/** "452 4.5.3 Too many recipients" (or 5.5.3 / 552 wording): the host takes fewer per transaction. */
export function isTooManyRecipients(result: RcptResult): boolean {
  const reply = result.reply;
  if (!reply) return false;
  return (
    ((reply.code === 452 || reply.code === 552) && /^[45]\.5\.3$/.test(reply.enhanced ?? '')) || /too many recipients/i.test(reply.text)
  );
}

export class RcptBatches {
  private readonly open = new Map<string, Batch>();
  /** Recipients per transaction a domain's host showed it takes (below the configured most). */
  private readonly limits = new Map<string, number>();
  /** Addresses of a domain asked and not answered yet. */
  private readonly pending = new Map<string, number>();

  /**
   * `most`: recipients per transaction at the most (the probe address counts). `connections`: how
   * many connections a host allows: the addresses waiting are spread over that many transactions
   * before any transaction grows, so batching never serializes what connections could run side by side.
   */
  constructor(
    private readonly prober: SmtpProber,
    private readonly most: number,
    private readonly connections: number,
  ) {}

  /** Asks for `address` in the domain's next transaction (with the catch-all `probe` address when given). */
  async ask(domain: string, hosts: string[], address: string, probe: string | null, signal: AbortSignal): Promise<BatchAnswer> {
    const pending = (this.pending.get(domain) ?? 0) + 1;
    this.pending.set(domain, pending);
    try {
      return await this.askInBatch(domain, hosts, address, probe, signal, pending);
    } finally {
      const left = (this.pending.get(domain) ?? 1) - 1;
      if (left <= 0) this.pending.delete(domain);
      else this.pending.set(domain, left);
    }
  }

  private async askInBatch(
    domain: string,
    hosts: string[],
    address: string,
    probe: string | null,
    signal: AbortSignal,
    pending: number,
    alone = false,
  ): Promise<BatchAnswer> {
    const limit = Math.max(1, this.limits.get(domain) ?? this.most);
    const wanted = alone ? 1 : Math.min(limit, Math.ceil(pending / this.connections));
    let batch = this.open.get(domain);
    const size = (b: Batch) => b.addresses.length + (b.probe || probe ? 1 : 0);
    if (alone || !batch || batch.started || batch.stop.signal.aborted || size(batch) >= wanted) batch = this.start(domain, hosts);
    const index = batch.addresses.push(address) - 1;
    if (probe && batch.probe === null) batch.probe = probe;
    batch.waiting += 1;
    const leave = () => {
      batch.waiting -= 1;
      if (batch.waiting === 0) batch.stop.abort();
    };
    signal.addEventListener('abort', leave, { once: true });
    if (signal.aborted) leave();
    let results: RcptResult[];
    try {
      results = await batch.results;
    } finally {
      signal.removeEventListener('abort', leave);
    }
    const offset = batch.probe ? 1 : 0;
    // A failure before every RCPT was answered ends the list with its unknown: it stands for the rest.
    const answerAt = (i: number) => results[i] ?? results[results.length - 1];
    const target = answerAt(index + offset);
    const probeAnswer = batch.probe ? answerAt(0) : null;
    if (isTooManyRecipients(target) && !signal.aborted) {
      const taken = results.findIndex(isTooManyRecipients);
      if (taken > 0) this.limits.set(domain, Math.min(limit, taken));
      const probeAgain = probe && probeAnswer && isTooManyRecipients(probeAnswer) ? probe : null;
      const again = await this.askInBatch(domain, hosts, address, probeAgain, signal, this.pending.get(domain) ?? 1);
      return { target: again.target, probe: again.probe ?? probeAnswer };
    }
    // The connection broke before this address was answered (a host that drops a session after
    // some recipients): asked once more in a transaction of its own.
    const listLength = batch.addresses.length + offset;
    const unanswered = results.length < listLength && index + offset >= results.length - 1;
    if (unanswered && !alone && listLength > 1 && !signal.aborted && (target.reason === 'dropped' || target.reason === 'timeout')) {
      const again = await this.askInBatch(domain, hosts, address, null, signal, 1, true);
      return { target: again.target, probe: probeAnswer };
    }
    return { target, probe: probeAnswer };
  }

  private start(domain: string, hosts: string[]): Batch {
    const stop = new AbortController();
    const batch: Batch = { addresses: [], probe: null, started: false, waiting: 0, stop, results: Promise.resolve([]) };
    this.open.set(domain, batch);
    let list: string[] | undefined;
    const conversation: Conversation = {
      initial: [],
      // The list is fixed when the transaction starts (also on a retry of it): until then the batch takes new members.
      recipients: () => {
        if (!list) {
          batch.started = true;
          if (this.open.get(domain) === batch) this.open.delete(domain);
          list = [...(batch.probe ? [batch.probe] : []), ...batch.addresses];
        }
        return list;
      },
    };
    // Started on the next tick, once the first member has joined.
    batch.results = Promise.resolve()
      .then(() => this.prober.converse(domain, hosts, stop.signal, conversation))
      .finally(() => {
        // Ended without a transaction (no host could be talked to): closed all the same.
        batch.started = true;
        if (this.open.get(domain) === batch) this.open.delete(domain);
      });
    return batch;
  }
}
