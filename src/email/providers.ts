// Which mail provider or security gateway runs an MX host, by host-name suffix. To add one, add a
// row: a display name and the suffixes its MX hosts end with (matched on a label boundary).

export interface MxOperator {
  name: string;
  suffixes: string[];
  /** The provider punishes several RCPTs in one session (probe one address per connection). */
  oneRcptPerSession?: boolean;
}

export const MAIL_PROVIDERS: MxOperator[] = [
  { name: 'Google', suffixes: ['google.com', 'googlemail.com', 'smtp.google.com'] },
  {
    name: 'Microsoft',
    suffixes: ['protection.outlook.com', 'outlook.com', 'hotmail.com', 'outlook.office365.com'],
    oneRcptPerSession: true,
  },
  { name: 'Yahoo', suffixes: ['yahoodns.net', 'yahoo.com'] },
  { name: 'Zoho', suffixes: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zohomail.com'] },
  { name: 'Fastmail', suffixes: ['messagingengine.com', 'fastmail.com'] },
  { name: 'Proton', suffixes: ['protonmail.ch', 'proton.me'] },
  { name: 'GoDaddy', suffixes: ['secureserver.net'] },
  { name: 'Rackspace', suffixes: ['emailsrvr.com'] },
  { name: 'Yandex', suffixes: ['yandex.net', 'yandex.ru'] },
  { name: 'Mail.ru', suffixes: ['mail.ru'] },
  { name: 'Amazon WorkMail', suffixes: ['amazonaws.com', 'awsapps.com'] },
  { name: 'Apple iCloud', suffixes: ['mail.icloud.com', 'me.com'] },
  { name: 'IONOS', suffixes: ['ionos.com', 'ionos.de', 'kundenserver.de', '1and1.com'] },
  { name: 'GMX', suffixes: ['gmx.net', 'gmx.com', 'web.de'] },
  { name: 'OVHcloud', suffixes: ['ovh.net', 'mail.ovh.net'] },
  { name: 'Namecheap Private Email', suffixes: ['privateemail.com', 'registrar-servers.com'] },
  { name: 'Hostinger', suffixes: ['hostinger.com'] },
  { name: 'Titan', suffixes: ['titan.email'] },
  { name: 'Tuta', suffixes: ['tutanota.de', 'tuta.io'] },
  { name: 'Migadu', suffixes: ['migadu.com'] },
  { name: 'mailbox.org', suffixes: ['mailbox.org'] },
  { name: 'Posteo', suffixes: ['posteo.de'] },
  { name: 'Tencent', suffixes: ['qq.com', 'exmail.qq.com'] },
  { name: 'NetEase', suffixes: ['163.com', '126.com', 'ym.163.com'] },
  { name: 'Naver', suffixes: ['naver.com'] },
  { name: 'Mailgun', suffixes: ['mailgun.org'] },
  { name: 'Forward Email', suffixes: ['forwardemail.net'] },
  { name: 'ImprovMX', suffixes: ['improvmx.com'] },
];

export const SECURITY_GATEWAYS: MxOperator[] = [
  { name: 'Proofpoint', suffixes: ['pphosted.com', 'ppe-hosted.com', 'ppops.net', 'proofpoint.com'] },
  { name: 'Mimecast', suffixes: ['mimecast.com', 'mimecast.co.za', 'mimecast-offshore.com'] },
  { name: 'Barracuda', suffixes: ['barracudanetworks.com', 'barracuda.com', 'cudamail.com'] },
  { name: 'Cisco Secure Email', suffixes: ['iphmx.com', 'ces.cisco.com'] },
  { name: 'Trend Micro', suffixes: ['trendmicro.com', 'trendmicro.eu', 'trendmicro.co.jp', 'tmes.trendmicro.com'] },
  { name: 'Sophos', suffixes: ['sophos.com', 'hydra.sophos.com', 'reflexion.net'] },
  { name: 'Forcepoint', suffixes: ['mailcontrol.com'] },
  { name: 'Broadcom (Symantec)', suffixes: ['messagelabs.com'] },
  { name: 'Hornetsecurity', suffixes: ['hornetsecurity.com', 'hornetsecurity.de'] },
  { name: 'SpamExperts', suffixes: ['spamexperts.com', 'spamexperts.eu', 'spamexperts.net', 'antispamcloud.com'] },
  { name: 'Cloudflare', suffixes: ['mxrecord.io', 'mxrecord.mx', 'mx.cloudflare.net'] },
  { name: 'Fortinet', suffixes: ['fortimail.com', 'fortinet.com', 'fortimailcloud.com'] },
  { name: 'Check Point Harmony', suffixes: ['checkpoint.com', 'avanan.net'] },
  { name: 'SpamTitan', suffixes: ['spamtitan.com'] },
  { name: 'Zix / AppRiver', suffixes: ['appriver.com', 'zixmail.net', 'zixcentral.com'] },
  { name: 'Vade', suffixes: ['vadesecure.com', 'vade.com'] },
  { name: 'Mailprotector', suffixes: ['mailprotector.net'] },
  { name: 'MailChannels', suffixes: ['mailchannels.net'] },
  { name: 'Libraesva', suffixes: ['libraesva.com', 'esvacloud.com'] },
  { name: 'Trustwave', suffixes: ['mailmarshal.com', 'trustwave.com'] },
  { name: 'Heimdal', suffixes: ['heimdalsecurity.com'] },
  { name: 'N-able Mail Assure', suffixes: ['mtaroutes.com'] },
];

function endsWithLabel(host: string, suffix: string): boolean {
  return host === suffix || host.endsWith(`.${suffix}`);
}

/** The longest matching suffix wins, so a specific row beats a general one. */
export function matchOperator(host: string, table: MxOperator[]): MxOperator | null {
  const name = host.toLowerCase().replace(/\.$/, '');
  let best: { operator: MxOperator; length: number } | null = null;
  for (const operator of table) {
    for (const suffix of operator.suffixes) {
      if (endsWithLabel(name, suffix) && (!best || suffix.length > best.length)) best = { operator, length: suffix.length };
    }
  }
  return best?.operator ?? null;
}

// Second-level labels under which registrations happen one level deeper (co.uk, com.au…).
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org', 'gov', 'ac', 'edu', 'ne', 'or', 'go']);

/** The registrable domain of a host, approximately ("mx1.mail.acme.co.uk" → "acme.co.uk"). */
export function registrableDomain(host: string): string {
  const labels = host.toLowerCase().replace(/\.$/, '').split('.');
  if (labels.length <= 2) return labels.join('.');
  const take = SECOND_LEVEL.has(labels.at(-2)!) && labels.at(-1)!.length === 2 ? 3 : 2;
  return labels.slice(-take).join('.');
}

export interface MxIdentity {
  provider: string | null;
  gateway: string | null;
  oneRcptPerSession: boolean;
}

/** Provider and gateway of a domain from its MX hosts (in preference order). */
export function identifyMx(hosts: string[]): MxIdentity {
  let provider: MxOperator | null = null;
  let gateway: MxOperator | null = null;
  for (const host of hosts) {
    provider ??= matchOperator(host, MAIL_PROVIDERS);
    gateway ??= matchOperator(host, SECURITY_GATEWAYS);
  }
  const first = hosts[0];
  // Unknown operators are named by the MX host's own domain; behind a gateway, by the gateway.
  const name = provider?.name ?? gateway?.name ?? (first ? registrableDomain(first) : null);
  return { provider: name, gateway: gateway?.name ?? null, oneRcptPerSession: provider?.oneRcptPerSession ?? false };
}
