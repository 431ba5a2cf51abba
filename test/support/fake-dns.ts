// A small authoritative DNS server on 127.0.0.1 (UDP, random port) that answers from records
// a test sets, so the real resolver code (node's c-ares Resolver) is exercised end to end.
//
//   const dns = await startFakeDns();
//   dns.mx('acme.test', [{ exchange: 'mx1.acme.test', priority: 10 }]);
//   dns.a('mx1.acme.test', ['127.0.0.1']);
//   dns.nxdomain('gone.test'); dns.servfail('broken.test'); dns.timeout('slow.test');
//   resolver.setServers([dns.address]);   // "127.0.0.1:<port>"
//   await dns.close();
//
// A name never set answers NXDOMAIN; a name set with other record types answers NOERROR with no
// answers (NODATA), as a real authoritative server does.
import { createSocket, type Socket } from 'node:dgram';
import dnsPacket from 'dns-packet';

export interface MxRecord {
  exchange: string;
  priority: number;
}

type Behaviour = 'nxdomain' | 'servfail' | 'timeout';

interface NameRecords {
  mx?: MxRecord[];
  a?: string[];
  aaaa?: string[];
  txt?: string[];
  behaviour?: Behaviour;
}

export interface FakeDns {
  /** "127.0.0.1:<port>", for Resolver.setServers or DNS_SERVERS. */
  address: string;
  port: number;
  mx(name: string, records: MxRecord[]): FakeDns;
  a(name: string, addresses: string[]): FakeDns;
  aaaa(name: string, addresses: string[]): FakeDns;
  txt(name: string, values: string[]): FakeDns;
  nxdomain(name: string): FakeDns;
  servfail(name: string): FakeDns;
  /** Never answers queries for this name (the resolver times out). */
  timeout(name: string): FakeDns;
  /** Forgets one name, or every name. */
  clear(name?: string): FakeDns;
  /** Queries received, as "TYPE name", in order. */
  readonly queries: string[];
  close(): Promise<void>;
}

export interface FakeDnsOptions {
  /** Delay before every answer (latency of a distant server). */
  latencyMs?: number;
}

const RCODE = { NOERROR: 0, SERVFAIL: 2, NXDOMAIN: 3 } as const;
const FLAG_AA = 1 << 10;
const FLAG_RD = 1 << 8;
const FLAG_RA = 1 << 7;

const key = (name: string) => name.toLowerCase().replace(/\.$/, '');

export async function startFakeDns(options: FakeDnsOptions = {}): Promise<FakeDns> {
  const records = new Map<string, NameRecords>();
  const queries: string[] = [];
  const socket: Socket = createSocket('udp4');

  const update = (name: string, patch: NameRecords) => {
    const k = key(name);
    const current = records.get(k) ?? {};
    // Setting data on a name clears a failure behaviour and vice versa.
    records.set(k, patch.behaviour ? { behaviour: patch.behaviour } : { ...current, behaviour: undefined, ...patch });
  };

  socket.on('message', (message, remote) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    const question = query.questions?.[0];
    if (!question) return;
    queries.push(`${question.type} ${key(question.name)}`);
    const entry = records.get(key(question.name));
    if (entry?.behaviour === 'timeout') return;
    let rcode: number = RCODE.NOERROR;
    const answers: dnsPacket.Answer[] = [];
    if (!entry) rcode = RCODE.NXDOMAIN;
    else if (entry.behaviour === 'nxdomain') rcode = RCODE.NXDOMAIN;
    else if (entry.behaviour === 'servfail') rcode = RCODE.SERVFAIL;
    else {
      const base = { name: question.name, ttl: 300, class: 'IN' as const };
      if (question.type === 'MX') {
        for (const mx of entry.mx ?? []) answers.push({ ...base, type: 'MX', data: { preference: mx.priority, exchange: mx.exchange } });
      } else if (question.type === 'A') {
        for (const ip of entry.a ?? []) answers.push({ ...base, type: 'A', data: ip });
      } else if (question.type === 'AAAA') {
        for (const ip of entry.aaaa ?? []) answers.push({ ...base, type: 'AAAA', data: ip });
      } else if (question.type === 'TXT') {
        for (const value of entry.txt ?? []) answers.push({ ...base, type: 'TXT', data: value });
      }
    }
    const response = dnsPacket.encode({
      type: 'response',
      id: query.id,
      flags: FLAG_AA | FLAG_RA | ((query.flags ?? 0) & FLAG_RD) | rcode,
      questions: query.questions,
      answers,
    });
    const send = () => socket.send(response, remote.port, remote.address);
    if (options.latencyMs) setTimeout(send, options.latencyMs);
    else send();
  });

  await new Promise<void>((resolve, reject) => {
    socket.once('error', reject);
    socket.bind(0, '127.0.0.1', () => resolve());
  });
  const port = socket.address().port;

  const api: FakeDns = {
    address: `127.0.0.1:${port}`,
    port,
    queries,
    mx: (name, mx) => (update(name, { mx }), api),
    a: (name, a) => (update(name, { a }), api),
    aaaa: (name, aaaa) => (update(name, { aaaa }), api),
    txt: (name, txt) => (update(name, { txt }), api),
    nxdomain: (name) => (update(name, { behaviour: 'nxdomain' }), api),
    servfail: (name) => (update(name, { behaviour: 'servfail' }), api),
    timeout: (name) => (update(name, { behaviour: 'timeout' }), api),
    clear: (name) => {
      if (name === undefined) records.clear();
      else records.delete(key(name));
      return api;
    },
    close: () => new Promise<void>((resolve) => socket.close(() => resolve())),
  };
  return api;
}
