// A fleet of simulated MX hosts for the email benchmark, run as a child process so that the
// verifiers under test do not share its event loop. Each domain dNNN.fleet.test has its own MX
// on 127.0.0.(N+2), port 25 (what a verifier with a fixed port expects), and every reply comes
// after a fixed delay (network latency). A fake DNS server (UDP, 127.0.0.1:random) serves MX/A.
//
// Domain kinds (by index), with the answer a correct verifier gives:
//   normal      mailboxes exist or get "550 5.1.1 user unknown"           valid / invalid
//   catch-all   every RCPT accepted                                          catch_all
//   blocklist   every RCPT refused for our IP: "554 5.7.1 … blocked using zen.spamhaus.org" on
//               some, "550 5.7.606 Access denied, banned sending IP" on others      unknown (about us, not the mailbox)
//   m365        unknown users "550 5.4.1 Recipient address rejected: Access denied" (Microsoft DBEB)  valid / invalid
//   greylist    every first RCPT "451 4.7.1 Greylisted"                      unknown
import { createServer, type Socket } from 'node:net';
import { startFakeDns } from '../../test/support/fake-dns.ts';

export type DomainKind = 'normal' | 'catch-all' | 'blocklist' | 'm365' | 'greylist';

export interface FleetDomain {
  domain: string;
  ip: string;
  kind: DomainKind;
}

export function fleetDomains(count: number): FleetDomain[] {
  return Array.from({ length: count }, (_, i) => {
    const slot = i % 20; // per 20 domains: 13 normal, 4 catch-all, 1 blocklist, 1 m365, 1 greylist
    const kind: DomainKind = slot < 13 ? 'normal' : slot < 17 ? 'catch-all' : slot === 17 ? 'blocklist' : slot === 18 ? 'm365' : 'greylist';
    return { domain: `d${String(i).padStart(3, '0')}.fleet.test`, ip: `127.0.0.${i + 2}`, kind };
  });
}

/** Mailboxes that exist on every fleet domain: "user0" … "user999" with even numbers. */
export const mailboxExists = (local: string) => /^user\d+$/.test(local) && Number(local.slice(4)) % 2 === 0;

function rcptReply(kind: DomainKind, address: string, greylisted: Set<string>, index: number): string {
  const local = address.slice(0, address.indexOf('@')).toLowerCase();
  switch (kind) {
    case 'catch-all':
      return '250 2.1.5 Ok';
    case 'blocklist':
      return index % 40 < 20
        ? '554 5.7.1 Service unavailable; Client host [127.0.0.1] blocked using zen.spamhaus.org'
        : '550 5.7.606 Access denied, banned sending IP [127.0.0.1]. To request removal from this list please visit https://sender.office.com/';
    case 'greylist':
      if (!greylisted.has(address)) {
        greylisted.add(address);
        return '451 4.7.1 Greylisted, please try again later';
      }
      return mailboxExists(local) ? '250 2.1.5 Ok' : `550 5.1.1 <${address}>: Recipient address rejected: User unknown`;
    case 'm365':
      return mailboxExists(local)
        ? '250 2.1.5 Recipient OK'
        : '550 5.4.1 Recipient address rejected: Access denied. AS(201806281) [contoso.mail.protection.outlook.com]';
    default:
      return mailboxExists(local)
        ? '250 2.1.5 Ok'
        : `550 5.1.1 <${address}>: Recipient address rejected: User unknown in virtual mailbox table`;
  }
}

function serve(socket: Socket, d: FleetDomain, latencyMs: number, greylisted: Set<string>): void {
  socket.setEncoding('utf8');
  socket.setNoDelay(true);
  socket.on('error', () => {});
  let buffer = '';
  // Each reply leaves `latencyMs` after its command arrived (in order): pipelined commands overlap,
  // as they would over a network link with that latency.
  const queue: { due: number; text: string; close: boolean }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = () => {
    timer = null;
    const now = Date.now();
    // Replies due together leave in one write, as an MTA flushes its pipelined replies.
    let out = '';
    let close = false;
    while (queue.length && queue[0].due <= now) {
      const item = queue.shift()!;
      out += `${item.text}\r\n`;
      close ||= item.close;
    }
    if (out && !socket.destroyed) socket.write(out);
    if (close) socket.end();
    if (queue.length) timer = setTimeout(flush, queue[0].due - now);
  };
  const reply = (text: string, close = false) => {
    queue.push({ due: Date.now() + latencyMs, text, close });
    if (!timer) timer = setTimeout(flush, latencyMs);
  };
  reply(`220 mx.${d.domain} ESMTP fleet`);
  socket.on('data', (chunk: string) => {
    buffer += chunk;
    let i: number;
    while ((i = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, i).replace(/\r$/, '');
      buffer = buffer.slice(i + 1);
      const verb = line.slice(0, 4).toUpperCase();
      if (verb === 'EHLO') reply(`250-mx.${d.domain}\r\n250-PIPELINING\r\n250-SIZE 52428800\r\n250-ENHANCEDSTATUSCODES\r\n250 8BITMIME`);
      else if (verb === 'HELO') reply(`250 mx.${d.domain}`);
      else if (verb === 'MAIL') reply('250 2.1.0 Ok');
      else if (verb === 'RCPT') {
        const match = /<([^>]*)>/.exec(line);
        reply(rcptReply(d.kind, match?.[1] ?? '', greylisted, Number(d.domain.slice(1, 4))));
      } else if (verb === 'RSET' || verb === 'NOOP') reply('250 2.0.0 Ok');
      else if (verb === 'QUIT') reply('221 2.0.0 Bye', true);
      else reply('502 5.5.2 Error: command not recognized');
    }
  });
}

async function main(): Promise<void> {
  const count = Number(process.env.FLEET_DOMAINS ?? 100);
  const latencyMs = Number(process.env.FLEET_LATENCY_MS ?? 20);
  const port = Number(process.env.FLEET_PORT ?? 25);
  const dns = await startFakeDns();
  const greylisted = new Set<string>();
  const domains = fleetDomains(count);
  for (const d of domains) {
    // The MX is an address literal too, so that a verifier that connects by host name through the
    // system resolver (getaddrinfo ignores node's DNS settings) still reaches the fleet.
    dns.mx(d.domain, [{ exchange: d.ip, priority: 10 }]);
    dns.a(d.ip, [d.ip]);
    const server = createServer((socket) => serve(socket, d, latencyMs, greylisted));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, d.ip, () => resolve());
    });
  }
  process.send?.({ ready: true, dns: dns.address, domains });
  process.on('message', (m: { resetGreylist?: boolean }) => {
    if (m?.resetGreylist) greylisted.clear();
  });
  process.on('disconnect', () => process.exit(0));
}

if (process.argv[1]?.endsWith('mx-fleet.ts')) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
