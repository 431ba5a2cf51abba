// Requests in the forms clients of LeadMagic's API send (docs/leadmagic-v1.md, "Request forms"),
// read as our contract's form before the body is validated: another name for a field, a number or
// a boolean written as a string, a full name in place of first and last, a domain given as the
// company's name. Each rewrite is one whose meaning is unambiguous; a request that would need a
// guess is refused with a message naming the field.
import type { OperationId } from './catalogue.ts';
import { InvalidRequestError } from './errors.ts';

type Body = Record<string, unknown>;

/** Other names clients send for a field, by operation: their name → ours. */
const OTHER_NAMES: Partial<Record<OperationId, Record<string, string>>> = {
  'company-search': { domain: 'company_domain', linkedin_url: 'profile_url' },
  'company-funding': { domain: 'company_domain', linkedin_url: 'profile_url' },
  'jobs-finder': { industry_id: 'company_industry_id', city_name: 'location' },
};

const DIGITS = /^\s*\d{1,9}\s*$/;
/** "7d": a number of days (a posting-age filter written as the CLI of one client documents it). */
const DAYS = /^\s*(\d{1,9})\s*d(ays?)?\s*$/i;
/** A bare domain: labels of letters, digits and hyphens, a letter-only last label, nothing else. */
const DOMAIN = /^(?!-)[a-z0-9-]{1,63}(\.[a-z0-9-]{1,63})*\.[a-z]{2,63}$/i;

const blank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A JSON Schema's own type names (a Nullable is anyOf [T, null]). */
function typesOf(schema: { type?: unknown; anyOf?: { type?: unknown }[] } | undefined): unknown[] {
  if (!schema) return [];
  if (schema.anyOf) return schema.anyOf.flatMap((member) => typesOf(member));
  return Array.isArray(schema.type) ? schema.type : [schema.type];
}

/** Moves a field sent under another name to ours; both given with different values is refused. */
function rename(body: Body, from: string, to: string): void {
  if (!(from in body)) return;
  const theirs = body[from];
  delete body[from];
  if (blank(theirs)) return;
  if (!blank(body[to]) && body[to] !== theirs) {
    throw new InvalidRequestError(`${from} and ${to} name the same thing with different values: send one of them.`, [
      { field: `/${from}`, message: `another name for ${to}, which is also given` },
    ]);
  }
  body[to] = theirs;
}

/** Numbers and booleans written as strings, where the schema asks for a number or a boolean. */
function coerceScalars(body: Body, properties: Record<string, { type?: unknown; anyOf?: { type?: unknown }[] }>): void {
  for (const [name, schema] of Object.entries(properties)) {
    const value = body[name];
    if (typeof value !== 'string') continue;
    const types = typesOf(schema);
    if (types.includes('integer') || types.includes('number')) {
      const days = name === 'posted_within' ? DAYS.exec(value) : null;
      if (DIGITS.test(value)) body[name] = Number(value);
      else if (days) body[name] = Number(days[1]);
    } else if (types.includes('boolean')) {
      if (value.trim().toLowerCase() === 'true') body[name] = true;
      else if (value.trim().toLowerCase() === 'false') body[name] = false;
    }
  }
}

/**
 * The email finder's other forms: `full_name` for first and last (the first word is the first
 * name, the rest the last name, particles kept: "Jean van der Berg"), and a domain sent as
 * `company_name` ("acme.com") read as the domain.
 */
function emailFinderForms(body: Body): void {
  if ('full_name' in body) {
    const full = body.full_name;
    delete body.full_name;
    if (!blank(full) && blank(body.first_name) && blank(body.last_name)) {
      const words = typeof full === 'string' ? full.trim().split(/\s+/) : [];
      if (words.length < 2) {
        throw new InvalidRequestError('full_name needs a first and a last name (or send first_name and last_name).', [
          { field: '/full_name', message: 'must hold at least two words' },
        ]);
      }
      body.first_name = words[0];
      body.last_name = words.slice(1).join(' ');
    }
  }
  const name = body.company_name;
  if (blank(body.domain) && typeof name === 'string' && DOMAIN.test(name.trim())) body.domain = name.trim().toLowerCase();
}

/** The other field names a request of the operation is read with (its clients' names, and full_name for the email finder). */
export function otherNamesOf(operation: OperationId): string[] {
  return [...Object.keys(OTHER_NAMES[operation] ?? {}), ...(operation === 'email-finder' ? ['full_name'] : [])];
}

/** The request body in our contract's form (a copy; the caller's body is left as it was). */
export function contractForm(operation: OperationId, body: unknown, schema: { properties?: Record<string, object> } | undefined): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const form: Body = { ...(body as Body) };
  for (const [from, to] of Object.entries(OTHER_NAMES[operation] ?? {})) rename(form, from, to);
  if (operation === 'email-finder') emailFinderForms(form);
  if (schema?.properties) coerceScalars(form, schema.properties);
  return form;
}
