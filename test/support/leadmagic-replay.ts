// Replaying requests recorded from LeadMagic's clients (test/fixtures/real/clients/) against the
// sample world: their example values as the sample world's, and fields read as the clients read them.

/** The placeholder values of the clients' examples, as the sample world's company, people and addresses. */
export const SAMPLE_VALUES: Readonly<Record<string, string>> = {
  'acme.com': 'acme-robotics.com',
  'leadmagic.io': 'acme-robotics.com',
  Acme: 'Acme Robotics, Inc.',
  LeadMagic: 'Acme Robotics, Inc.',
  'jane@acme.com': 'jane@acme-robotics.com',
  'john@acme.com': 'john.smith@acme-robotics.com',
  'jesse@leadmagic.io': 'john.smith@acme-robotics.com',
  'https://www.linkedin.com/in/janedoe': 'https://www.linkedin.com/in/maria-de-la-cruz',
  'https://example.com/in/janedoe': 'https://www.linkedin.com/in/maria-de-la-cruz',
  'https://linkedin.com/in/johndoe': 'https://www.linkedin.com/in/maria-de-la-cruz',
  'https://profiles.example.com/test-user': 'https://www.linkedin.com/in/maria-de-la-cruz',
  'https://www.linkedin.com/company/acme': 'https://www.linkedin.com/company/acme-robotics',
};

/** The value with every example value replaced by the sample world's (`more` first, then SAMPLE_VALUES). */
export function withSampleValues(value: unknown, more: Readonly<Record<string, string>> = {}): unknown {
  if (typeof value === 'string') return more[value] ?? SAMPLE_VALUES[value] ?? value;
  if (Array.isArray(value)) return value.map((v) => withSampleValues(v, more));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withSampleValues(v, more)]));
  return value;
}

/** A field a client reads ("basicInfo.companyName", "competitors.0.name"; "length" of a list answer). */
export function readField(answer: unknown, path: string): unknown {
  if (path === 'length') return Array.isArray(answer) ? answer.length : undefined;
  return path
    .split('.')
    .reduce<unknown>((at, key) => (at && typeof at === 'object' ? (at as Record<string, unknown>)[key] : undefined), answer);
}
