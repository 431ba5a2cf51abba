// The one rule for a URL a caller gives (a feed's or careers page's locator, a base_url): its own
// file so that the registry and the kinds both use it without importing each other.
import { SourceInputError } from './source-input-error.ts';

/** Parses an http(s) URL without credentials or fragment; refuses anything else naming `field`. */
export function httpUrl(text: string, field: string): URL {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new SourceInputError(`${field} must be an http or https URL, got "${text}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new SourceInputError(`${field} must be an http or https URL`);
  if (url.username || url.password) throw new SourceInputError(`${field} must not carry credentials`);
  url.hash = '';
  return url;
}

/** A locator that is a page's URL (a feed, a careers page): stored normalised, compared without case. */
export function urlLocator(type: string, text: string): { locator: string; key: string } {
  if (!text) throw new SourceInputError(`a ${type} source needs a locator (its URL)`);
  const url = httpUrl(text, 'locator').toString();
  return { locator: url, key: url.toLowerCase() };
}
