// What a reply to RCPT TO says about the mailbox. The table is ordered: the first matching row
// wins, so specific rows (a provider's known wording) come before general ones (a code class).
// Verifiers commonly call every 5xx "invalid"; but a 5xx is often about *us* (blocklisted IP,
// policy) and says nothing about the address, so those rows answer unknown.
import type { SmtpReply } from './smtp-session.ts';

export type RcptVerdict = 'accepted' | 'rejected' | 'unknown';

export type RcptReason =
  | 'accepted'
  | 'cannot_verify'
  | 'user_unknown'
  | 'mailbox_disabled'
  | 'mailbox_full'
  | 'greylisted'
  | 'rate_limited'
  | 'service_unavailable'
  | 'blocked'
  | 'policy'
  | 'temporary'
  | 'protocol'
  | 'utf8_unsupported'
  | 'unclassified';

export interface ReplyRule {
  name: string;
  /** Reply codes this row applies to (exact numbers, or a class digit "4" / "5"). */
  codes: (number | '2' | '4' | '5')[];
  /** Enhanced status code prefixes ("5.1.1", "5.7."); the row needs one of them to match when given. */
  enhanced?: string[];
  /** Reply text pattern; the row needs it to match when given. */
  text?: RegExp;
  verdict: RcptVerdict;
  reason: RcptReason;
}

// Text that means "we (the sender) are the problem", not the mailbox.
const BLOCKING =
  /\b(spamhaus|spamcop|barracuda ?(rbl|central)|sorbs|dnsbl|rbl|block ?list(ed)?|black ?list(ed)?|blocked|banned|reputation|poor reputation|listed (at|on|in)|client host .* (rejected|blocked)|sender (ip|address) (rejected|blocked)|not allowed to send|too many (connections|messages|recipients)|rate limit|throttl)/i;
const POLICY =
  /\b(policy|not authori[sz]ed|relay(ing)? (denied|not permitted|access denied)|authentication required|spf|dmarc|dkim|reverse dns|ptr|helo)\b/i;
const USER_UNKNOWN =
  /\b(user unknown|unknown user|unknown recipient|no such (user|mailbox|recipient|address)|(mailbox|recipient|user|address) (not found|does ?n[o']t exist|unavailable|is unavailable|not valid|invalid)|(invalid|bad|unknown) (recipient|mailbox|address)|not a valid (mailbox|recipient|address)|does not exist|doesn'?t exist|doesn'?t have an? [\w.-]+ account|no such account|no mailbox|undeliverable address|unrouteable address|address rejected|recipient rejected|not listed in|account (does not exist|not found))\b/i;
const DISABLED = /\b(disabled|deactivated|inactive|suspended|closed|expired|no longer (active|in use|available))\b/i;
const FULL =
  /\b(mailbox (is )?full|over ?quota|quota exceeded|exceeded (storage|quota)|insufficient (storage|space)|mailbox size limit)\b/i;
// A receiver slowing us down (Gmail's published 421 4.7.28 / 4.7.0 and 450 4.2.1 wordings, and the
// common "rate limited"): a temporary answer about the pace of our connections, to be asked again later.
const RATE_LIMITED =
  /\b(unusual rate of unsolicited mail|rate[- ]limit(ed|ing)?|receiving mail (too quickly|at a rate)|try again later,? closing connection)/i;
const GREYLIST =
  /\b(gr[ae]y ?list|try (again )?later|temporar(il)?y (deferred|rejected|unavailable)|deferred|please retry|come back later)/i;

export const RCPT_REPLY_TABLE: ReplyRule[] = [
  { name: 'accepted', codes: [250, 251], verdict: 'accepted', reason: 'accepted' },
  { name: 'cannot verify, will attempt delivery', codes: [252], verdict: 'unknown', reason: 'cannot_verify' },
  // Microsoft 365 directory-based edge blocking answers a missing recipient with "Access denied" and a 5.4.1.
  {
    name: 'Microsoft 365 recipient not in directory',
    codes: ['5'],
    enhanced: ['5.4.1'],
    text: /recipient address rejected: access denied/i,
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  // Before greylisting and "service not available": Gmail's "Try again later, closing connection" is a rate limit.
  { name: 'rate limited (enhanced 4.7.28)', codes: ['4'], enhanced: ['4.7.28'], verdict: 'unknown', reason: 'rate_limited' },
  { name: 'rate limited (text)', codes: ['4'], text: RATE_LIMITED, verdict: 'unknown', reason: 'rate_limited' },
  { name: 'greylisting', codes: [450, 451], text: GREYLIST, verdict: 'unknown', reason: 'greylisted' },
  {
    name: 'greylisting (enhanced 4.7.1 / 4.2.0 on 450/451)',
    codes: [450, 451],
    enhanced: ['4.7.1', '4.2.0', '4.7.0'],
    verdict: 'unknown',
    reason: 'greylisted',
  },
  { name: 'service not available', codes: [421], verdict: 'unknown', reason: 'service_unavailable' },
  { name: 'mailbox full (text)', codes: ['4', '5'], text: FULL, verdict: 'unknown', reason: 'mailbox_full' },
  {
    name: 'mailbox full (enhanced 4.2.2 / 5.2.2)',
    codes: ['4', '5'],
    enhanced: ['4.2.2', '5.2.2'],
    verdict: 'unknown',
    reason: 'mailbox_full',
  },
  { name: 'blocked sender (text)', codes: ['4', '5'], text: BLOCKING, verdict: 'unknown', reason: 'blocked' },
  // Some providers (Yandex) answer a missing user with a 5.7.1: the words decide.
  {
    name: 'user unknown under a 5.7.x code',
    codes: ['5'],
    enhanced: ['5.7.'],
    text: /\b(no such user|user unknown|unknown user|user not found|mailbox not found|does not exist)\b/i,
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  { name: 'security policy (enhanced 5.7.x)', codes: ['5'], enhanced: ['5.7.'], verdict: 'unknown', reason: 'policy' },
  { name: 'policy (text)', codes: ['4', '5'], text: POLICY, verdict: 'unknown', reason: 'policy' },
  { name: 'mailbox disabled (enhanced 5.2.1)', codes: ['5'], enhanced: ['5.2.1'], verdict: 'rejected', reason: 'mailbox_disabled' },
  { name: 'mailbox disabled (text)', codes: [550, 551, 553, 554], text: DISABLED, verdict: 'rejected', reason: 'mailbox_disabled' },
  {
    name: 'bad destination mailbox (enhanced 5.1.1 / 5.1.0 / 5.1.6 / 5.1.2 / 5.1.3)',
    codes: ['5'],
    enhanced: ['5.1.1', '5.1.0', '5.1.6', '5.1.2', '5.1.3'],
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  // A 5.5.x code says our command was refused (syntax, sequence, parameters), whatever words follow.
  {
    name: 'our command refused (enhanced 5.5.x on 500-504 / 555)',
    codes: [500, 501, 502, 503, 504, 555],
    enhanced: ['5.5.'],
    verdict: 'unknown',
    reason: 'protocol',
  },
  { name: 'user unknown (text)', codes: ['5'], text: USER_UNKNOWN, verdict: 'rejected', reason: 'user_unknown' },
  {
    name: 'mailbox unavailable without detail (550 / 551 / 553)',
    codes: [550, 551, 553],
    enhanced: [],
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  { name: 'syntax or sequence error (our side)', codes: [500, 501, 502, 503, 504, 555], verdict: 'unknown', reason: 'protocol' },
  { name: 'other temporary failure', codes: ['4'], verdict: 'unknown', reason: 'temporary' },
  { name: 'other permanent failure', codes: ['5'], verdict: 'unknown', reason: 'unclassified' },
];

function codeMatches(code: number, codes: ReplyRule['codes']): boolean {
  return codes.some((c) => (typeof c === 'number' ? c === code : String(code)[0] === c));
}

/** An empty `enhanced` list means "only when the reply has no enhanced code". */
function enhancedMatches(enhanced: string | null, wanted: string[] | undefined): boolean {
  if (wanted === undefined) return true;
  if (wanted.length === 0) return enhanced === null;
  return enhanced !== null && wanted.some((w) => (w.endsWith('.') ? enhanced.startsWith(w) : enhanced === w));
}

export function classifyRcptReply(reply: SmtpReply): { verdict: RcptVerdict; reason: RcptReason; rule: string } {
  for (const rule of RCPT_REPLY_TABLE) {
    if (!codeMatches(reply.code, rule.codes)) continue;
    if (!enhancedMatches(reply.enhanced, rule.enhanced)) continue;
    if (rule.text && !rule.text.test(reply.text)) continue;
    return { verdict: rule.verdict, reason: rule.reason, rule: rule.name };
  }
  return { verdict: 'unknown', reason: 'unclassified', rule: 'none' };
}
