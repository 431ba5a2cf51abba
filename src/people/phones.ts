// Phone numbers: parsed and typed with libphonenumber-js and its full ("max") metadata, which
// knows which number ranges are mobile. Stored in E.164.
import { isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max';

/** mobile; possibly_mobile (ranges shared by fixed and mobile lines, as in the US); fixed; other (VoIP, toll free…). */
export type PhoneType = 'mobile' | 'possibly_mobile' | 'fixed' | 'other';
export interface ParsedPhone {
  e164: string;
  type: PhoneType;
  /** ISO country of the number, when its range tells. */
  country: string | null;
}

/** Whether a two-letter code is a country libphonenumber knows. */
export function isPhoneCountry(code: string): boolean {
  return isSupportedCountry(code.toUpperCase());
}

/**
 * Parses a number written in any usual way ("+44 7700 900123", "(415) 555-2671" with default
 * country US). `declared` is what the source said the number is; it refines only what the
 * number's range leaves open (a "mobile" in a fixed-or-mobile range is a mobile), never
 * overrides what the range says. Null when the number is not valid.
 */
export function parsePhone(raw: string, defaultCountry?: string | null, declared?: string | null): ParsedPhone | null {
  if (typeof raw !== 'string' || !raw.trim()) return null;
  const country = defaultCountry ? (defaultCountry.toUpperCase() as CountryCode) : undefined;
  let phone;
  try {
    phone = parsePhoneNumberFromString(raw.trim(), country);
  } catch {
    return null;
  }
  if (!phone || !phone.isValid()) return null;
  let type: PhoneType;
  switch (phone.getType()) {
    case 'MOBILE':
      type = 'mobile';
      break;
    case 'FIXED_LINE_OR_MOBILE':
      type = declaredType(declared) === 'mobile' ? 'mobile' : declaredType(declared) === 'fixed' ? 'fixed' : 'possibly_mobile';
      break;
    case 'FIXED_LINE':
      type = 'fixed';
      break;
    case undefined:
      // The range does not say: a source's "mobile" is not taken on its word (a switchboard is
      // often listed as one), so such a number is never served as a mobile.
      type = declaredType(declared) === 'fixed' ? 'fixed' : 'other';
      break;
    default:
      type = 'other';
  }
  return { e164: phone.number, type, country: phone.country ?? null };
}

/**
 * Whether the numbering plan puts this E.164 number in a mobile range (or a range shared by fixed
 * and mobile lines, where it cannot tell): what the mobile finder checks before serving a number,
 * whatever type it was stored with.
 */
export function isMobileRange(e164: string): boolean {
  try {
    const type = parsePhoneNumberFromString(e164)?.getType();
    return type === 'MOBILE' || type === 'FIXED_LINE_OR_MOBILE';
  } catch {
    return false;
  }
}

/** A source's own wording of a phone type, reduced to ours (null when it says nothing we use). */
export function declaredType(text: string | null | undefined): PhoneType | null {
  const t = (text ?? '').trim().toLowerCase();
  if (!t) return null;
  if (/^(mobile|cell|cellular|cell ?phone|mobile ?phone|handy|portable|gsm|m)$/.test(t)) return 'mobile';
  if (/^(possibly[_ ]mobile|fixed[_ ]or[_ ]mobile)$/.test(t)) return 'possibly_mobile';
  if (/^(fixed|fixed[_ ]line|landline|land ?line|work|office|direct|direct ?dial|home|main|hq|switchboard)$/.test(t)) return 'fixed';
  return null;
}

/** The wire form of a mobile number (docs/contract.md, Values): the E.164 digits as a number ("+14155552671" → 14155552671). */
export function mobileNumberOf(e164: string): number {
  return Number(e164.replace(/\D/g, ''));
}
