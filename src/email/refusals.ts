// Replies that refuse *us* as a sender: our address is on a blocklist, banned by the provider, or
// of poor reputation; it says nothing about the mailbox. Such a reply never makes an address
// invalid: the conversation is tried again through another outbound identity, and the refused one
// is quarantined (outbound.ts). The wording below comes from real replies (test/fixtures/real/
// smtp-replies/, with their origins); a rate limit ("too many connections") is not a refusal.
import type { SmtpReply } from './smtp-session.ts';

export interface Block {
  /** A public blocklist names the address: every mail server that reads it will refuse it. */
  everywhere: boolean;
}

/** Public DNS blocklists (and reputation lists sold to many receivers), by name or by a zone "blocked using x.y". */
const PUBLIC_LIST =
  /\b(spamhaus|spamcop|sorbs|barracuda ?(reputation|rbl)|barracudacentral|abusix|uceprotect|psbl|dnsbls?(?!-)|rbl|surbl|mailspike|spamrats|invaluement)\b|\b(blocked using|(?<!not )(is |are )?listed (at|on|in|by)) [a-z0-9-]+(\.[a-z0-9-]+)+/i;

/** A provider's own list or reputation verdict about the sending address. */
const OUR_ADDRESS = new RegExp(
  [
    // Microsoft: "banned sending IP", "banned sender", S3150 "part of their network is on our block list"
    String.raw`\bbanned send(ing|er)\b`,
    String.raw`\bon our block ?list\b`,
    String.raw`not currently accepting mail from your ip`,
    String.raw`\bblocked using\b`,
    // Postfix reject_rbl_client / check_client_access: "Client host [x] blocked", "Client host rejected"
    String.raw`\bclient host (\[[^\]]*\] )?(is )?(rejected|blocked|black ?listed|block ?listed)`,
    String.raw`\b(ip|address|host|sender|client|network)( address)? (\[[^\]]*\] )?(is |has been )?(black ?listed|block ?listed)\b`,
    String.raw`\b(black|block) ?list(ed)?\b`,
    String.raw`\b(your|sending|sender|client|source|originating) ip\b[^.;]{0,60}\b(block|ban|list|reject|refus|reputation)`,
    String.raw`\bmail from [\d.:a-f]+ (is )?(rejected|refused|has been blocked|blocked)`,
    String.raw`\b(poor|bad|low) reputation\b`,
    String.raw`\breputation (service|score|block)`,
    String.raw`\bsbrs score too low\b`,
    String.raw`ipcheck\.proofpoint\.com|refused by proofpoint|proofpoint (dynamic )?reputation`,
    String.raw`your access to this mail system has been rejected`,
    String.raw`\bconnection rejected by policy\b`,
    String.raw`\badministratively denied\b`,
    String.raw`\bjunkmail rejected\b`,
  ].join('|'),
  'i',
);

/** Enhanced codes about the mailbox (5.1.x address, 5.2.x mailbox): such a reply is never about us. */
const ABOUT_THE_MAILBOX = /^[45]\.[12]\./;

/**
 * Whether `reply` refuses our sending identity, and how widely. `atConnect`: the server's
 * greeting, where a 554 refuses the client outright (RFC 5321 3.1) whatever its words.
 */
export function blockOf(reply: SmtpReply, atConnect = false): Block | null {
  if (reply.code < 400) return null;
  if (reply.enhanced && ABOUT_THE_MAILBOX.test(reply.enhanced)) return null;
  const everywhere = PUBLIC_LIST.test(reply.text);
  if (everywhere || OUR_ADDRESS.test(reply.text)) return { everywhere };
  if (atConnect && reply.code === 554) return { everywhere: false };
  return null;
}
