// MX hosts that refused our sending address (a blocklisted or banned IP). Asking such a host
// again soon gets the same answer and only spreads our address over more lists, so for a while
// its answers are given without a connection: `unknown`, as the refusal itself was. Per instance
// and in memory: instances may send from different addresses, and losing the memory on a
// restart costs one refusal per host.
import { classifyRcptReply } from './classify.ts';
import type { SmtpReply } from './smtp-session.ts';
import { TtlCache } from './ttl-cache.ts';

// Wording that names our address or a list it is on, not a rate limit or the mailbox.
const NAMES_OUR_ADDRESS =
  /\b(spamhaus|spamcop|sorbs|barracuda ?(rbl|central)|dnsbl|rbl|block ?list(ed)?|black ?list(ed)?|listed (at|on|in|by)|client host .*(rejected|blocked)|(sending|sender|client|your|source) ip\b|ip (address )?.*(blocked|banned|black ?listed|block ?listed)|(poor|bad|low) reputation)/i;

/** Temporary refusals (4xx) are remembered at most this long: they are often lifted quickly. */
const TEMPORARY_REFUSAL_MAX_MS = 60_000;

export function refusesOurAddress(reply: SmtpReply): boolean {
  return reply.code >= 400 && classifyRcptReply(reply).reason === 'blocked' && NAMES_OUR_ADDRESS.test(reply.text);
}

export interface HostRefusal {
  reply: SmtpReply;
  /** The host refused us before any transaction (banner, EHLO): another MX host may still be asked. */
  atGreeting: boolean;
}

export class HostRefusals {
  private readonly hosts = new TtlCache<HostRefusal>(20_000);

  constructor(private readonly ttlMs: number) {}

  /** Remembers `host` when `reply` refuses our address; says whether it did. */
  note(host: string, reply: SmtpReply, atGreeting: boolean): boolean {
    if (this.ttlMs <= 0 || !refusesOurAddress(reply)) return false;
    this.hosts.set(host, { reply, atGreeting }, reply.code >= 500 ? this.ttlMs : Math.min(this.ttlMs, TEMPORARY_REFUSAL_MAX_MS));
    return true;
  }

  get(host: string): HostRefusal | undefined {
    return this.hosts.get(host)?.value;
  }

  clear(): void {
    this.hosts.clear();
  }
}
