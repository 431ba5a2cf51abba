// One case per row of the RCPT reply table, with the wording real servers use.
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { classifyRcptReply, RCPT_REPLY_TABLE } from '../../src/email/classify.ts';

const cases: { row: string; code: number; enhanced: string | null; text: string; verdict: string; reason: string }[] = [
  { row: 'accepted', code: 250, enhanced: '2.1.5', text: 'Recipient ok', verdict: 'accepted', reason: 'accepted' },
  {
    row: 'cannot verify, will attempt delivery',
    code: 252,
    enhanced: '2.1.5',
    text: 'Cannot VRFY user, but will accept message',
    verdict: 'unknown',
    reason: 'cannot_verify',
  },
  {
    row: 'Microsoft 365 recipient not in directory',
    code: 550,
    enhanced: '5.4.1',
    text: 'Recipient address rejected: Access denied. For more information see https://aka.ms/EXOSmtpErrors [AM0PR01MB1234.eurprd01.prod.exchangelabs.com]',
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'greylisting',
    code: 451,
    enhanced: null,
    text: 'Greylisted, see http://postgrey.schweikert.ch/help/example.com.html',
    verdict: 'unknown',
    reason: 'greylisted',
  },
  {
    row: 'greylisting (enhanced 4.7.1 / 4.2.0 on 450/451)',
    code: 450,
    enhanced: '4.2.0',
    text: '<a@example.com>: Recipient address rejected',
    verdict: 'unknown',
    reason: 'greylisted',
  },
  {
    row: 'rate limited (enhanced 4.7.28)',
    code: 421,
    enhanced: '4.7.28',
    text: '[198.51.100.7 15] Our system has detected an unusual rate of unsolicited mail originating from your IP address.',
    verdict: 'unknown',
    reason: 'rate_limited',
  },
  {
    row: 'rate limited (text)',
    code: 421,
    enhanced: '4.7.0',
    text: 'Try again later, closing connection.',
    verdict: 'unknown',
    reason: 'rate_limited',
  },
  {
    row: 'service not available',
    code: 421,
    enhanced: '4.3.2',
    text: 'System not accepting network messages',
    verdict: 'unknown',
    reason: 'service_unavailable',
  },
  {
    row: 'mailbox full (text)',
    code: 550,
    enhanced: null,
    text: 'Mailbox is full / quota exceeded',
    verdict: 'unknown',
    reason: 'mailbox_full',
  },
  {
    row: 'mailbox full (enhanced 4.2.2 / 5.2.2)',
    code: 552,
    enhanced: '5.2.2',
    text: 'The email account that you tried to reach is over its storage allotment',
    verdict: 'unknown',
    reason: 'mailbox_full',
  },
  {
    row: 'blocked sender (text)',
    code: 554,
    enhanced: '5.7.1',
    text: 'Service unavailable; Client host [203.0.113.9] blocked using zen.spamhaus.org',
    verdict: 'unknown',
    reason: 'blocked',
  },
  {
    row: 'user unknown under a 5.7.x code',
    code: 550,
    enhanced: '5.7.1',
    text: 'No such user!',
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'user unknown (text)',
    code: 554,
    enhanced: null,
    text: "delivery error: dd This user doesn't have a yahoo.com account (someone@yahoo.com) [0] - mta1234.mail.gq1.yahoo.com",
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'user unknown (text)',
    code: 550,
    enhanced: '5.5.0',
    text: 'Requested action not taken: mailbox unavailable (S2017062302)',
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'security policy (enhanced 5.7.x)',
    code: 550,
    enhanced: '5.7.606',
    text: 'Access denied, please contact support',
    verdict: 'unknown',
    reason: 'policy',
  },
  { row: 'policy (text)', code: 550, enhanced: null, text: 'Rejected by recipient domain policy', verdict: 'unknown', reason: 'policy' },
  {
    row: 'mailbox disabled (enhanced 5.2.1)',
    code: 550,
    enhanced: '5.2.1',
    text: 'The email account that you tried to reach is disabled',
    verdict: 'rejected',
    reason: 'mailbox_disabled',
  },
  {
    row: 'mailbox disabled (text)',
    code: 554,
    enhanced: null,
    text: "delivery error: dd This user doesn't have a yahoo.com account - account deactivated",
    verdict: 'rejected',
    reason: 'mailbox_disabled',
  },
  {
    row: 'bad destination mailbox (enhanced 5.1.1 / 5.1.0 / 5.1.6 / 5.1.2)',
    code: 550,
    enhanced: '5.1.1',
    text: "The email account that you tried to reach does not exist. Please try double-checking the recipient's email address",
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  { row: 'user unknown (text)', code: 550, enhanced: null, text: 'No such user here', verdict: 'rejected', reason: 'user_unknown' },
  {
    row: 'mailbox unavailable without detail (550 / 551 / 553)',
    code: 553,
    enhanced: null,
    text: "sorry, that domain isn't in my list of allowed rcpthosts",
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'syntax or sequence error (our side)',
    code: 503,
    enhanced: '5.5.1',
    text: 'Error: need MAIL command',
    verdict: 'unknown',
    reason: 'protocol',
  },
  {
    row: 'bad destination mailbox (enhanced 5.1.1 / 5.1.0 / 5.1.6 / 5.1.2 / 5.1.3)',
    code: 501,
    enhanced: '5.1.3',
    text: 'Bad recipient address syntax',
    verdict: 'rejected',
    reason: 'user_unknown',
  },
  {
    row: 'our command refused (enhanced 5.5.x on 500-504 / 555)',
    code: 501,
    enhanced: '5.5.4',
    text: 'Invalid Address',
    verdict: 'unknown',
    reason: 'protocol',
  },
  {
    row: 'syntax or sequence error (our side)',
    code: 500,
    enhanced: null,
    text: 'Syntax error, command unrecognized',
    verdict: 'unknown',
    reason: 'protocol',
  },
  { row: 'other temporary failure', code: 452, enhanced: '4.5.3', text: 'Too many recipients', verdict: 'unknown', reason: 'blocked' },
  { row: 'other temporary failure', code: 450, enhanced: '4.4.4', text: 'Unable to route', verdict: 'unknown', reason: 'temporary' },
  {
    row: 'other permanent failure',
    code: 550,
    enhanced: '5.0.0',
    text: 'Something odd happened',
    verdict: 'unknown',
    reason: 'unclassified',
  },
];

describe('RCPT reply classification table', () => {
  for (const c of cases) {
    it(`${c.code} ${c.enhanced ?? ''} ${c.text.slice(0, 50)} → ${c.verdict}`, () => {
      const result = classifyRcptReply({ code: c.code, enhanced: c.enhanced, text: c.text });
      assert.equal(result.verdict, c.verdict);
      assert.equal(result.reason, c.reason);
    });
  }

  it('every row of the table has at least one case above', () => {
    const covered = new Set(cases.map((c) => classifyRcptReply({ code: c.code, enhanced: c.enhanced, text: c.text }).rule));
    for (const rule of RCPT_REPLY_TABLE) assert.ok(covered.has(rule.name), `row without a test: ${rule.name}`);
  });
});

describe('rate limits, in real wording (test/fixtures/real/smtp-replies/rate-limits.json)', () => {
  const { replies } = JSON.parse(
    readFileSync(join(import.meta.dirname, '..', 'fixtures', 'real', 'smtp-replies', 'rate-limits.json'), 'utf8'),
  ) as { replies: { source: string; code: number; text: string }[] };
  for (const f of replies) {
    it(`${f.code} ${f.text.slice(0, 60)} → rate_limited (asked again later, never invalid)`, () => {
      const match = /^([245]\.\d{1,3}\.\d{1,3})\s+/.exec(f.text);
      const reply = { code: f.code, enhanced: match ? match[1] : null, text: match ? f.text.slice(match[0].length) : f.text };
      const result = classifyRcptReply(reply);
      assert.equal(result.verdict, 'unknown');
      assert.equal(result.reason, 'rate_limited');
    });
  }
});
