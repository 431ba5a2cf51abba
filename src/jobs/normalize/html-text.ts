// Job boards send descriptions as HTML (sometimes entity-escaped HTML). The API serves plain text.
const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  ndash: '–',
  mdash: '—',
  hellip: '…',
  rsquo: '’',
  lsquo: '‘',
  rdquo: '”',
  ldquo: '“',
  bull: '•',
  middot: '·',
  euro: '€',
  pound: '£',
  copy: '©',
  reg: '®',
  trade: '™',
  eacute: 'é',
  egrave: 'è',
  aacute: 'á',
  agrave: 'à',
  ouml: 'ö',
  uuml: 'ü',
  auml: 'ä',
  szlig: 'ß',
  ccedil: 'ç',
  ntilde: 'ñ',
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === '#') {
      const code = entity[1] === 'x' || entity[1] === 'X' ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
      return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : whole;
    }
    return NAMED[entity.toLowerCase()] ?? whole;
  });
}

/** HTML (or entity-escaped HTML) to readable text: block elements become line breaks, list items bullets. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  let text = html;
  // Greenhouse's `content` is HTML escaped once more.
  if (/&lt;\/?[a-z]/i.test(text) && !/<\/?[a-z][^>]*>/i.test(text)) text = decodeEntities(text);
  text = text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<li[^>]*>/gi, '\n• ')
    .replace(/<br\s*\/?>/gi, '\n')
    .replace(/<\/(p|div|h[1-6]|ul|ol|tr|section|article|header|footer)>/gi, '\n')
    .replace(/<[^>]+>/g, ' ');
  // Only what needs changing is matched: single spaces and bare line breaks are left alone.
  return decodeEntities(text)
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ')
    .replace(/ +\n *|\n +/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
