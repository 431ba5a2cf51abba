// Professional-network profile identifiers. Sources and callers write a profile as a full URL
// (any host variant, tracking parameters, trailing slash), a path ("/in/jane-doe") or the bare
// public identifier; all of them reduce to one identifier, which is how profiles are stored.

/** The common professional-network profile URL form; the served URL is this base plus the identifier. */
export const DEFAULT_PROFILE_BASE_URL = 'https://www.linkedin.com/in/';

// Unicode letters and digits, hyphen and underscore; 3 to 100 characters (public identifiers are 3–100).
const IDENTIFIER = /^[\p{L}\p{N}_-]{3,100}$/u;
const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/**
 * The public identifier of a profile, lower case, from a URL (`https://uk.example.com/in/Jane-Doe-12/?trk=x`),
 * a host-less path (`example.com/in/jane-doe`, `/in/jane-doe`, `in/jane-doe`) or a bare identifier.
 * Null when the input names no plausible identifier.
 */
export function normalizeProfileId(input: string | null | undefined): string | null {
  if (typeof input !== 'string') return null;
  let text = input.trim();
  if (!text) return null;
  let path: string;
  if (SCHEME.test(text) || /^[^\s/]+\.[a-z]{2,}\//i.test(text) || text.startsWith('/') || /^(in|pub)\//i.test(text)) {
    if (!SCHEME.test(text))
      text = text.startsWith('/') || /^(in|pub)\//i.test(text) ? `https://host.invalid/${text.replace(/^\/+/, '')}` : `https://${text}`;
    try {
      path = new URL(text).pathname;
    } catch {
      return null;
    }
    const match = /^\/(?:[a-z]{2}\/)?(?:in|pub)\/([^/]+)/i.exec(path);
    if (!match) return null;
    text = match[1]!;
  } else {
    text = text.replace(/[?#].*$/, '').replace(/\/+$/, '');
  }
  const id = decode(text).normalize('NFC').toLowerCase();
  return IDENTIFIER.test(id) ? id : null;
}

/** The full profile URL served for an identifier. */
export function profileUrlFor(id: string, baseUrl: string = DEFAULT_PROFILE_BASE_URL): string {
  const base = baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`;
  return `${base}${encodeURIComponent(id).replace(/%2D/gi, '-')}`;
}
