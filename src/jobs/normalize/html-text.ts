// Job boards send descriptions as HTML (sometimes entity-escaped HTML). The API serves plain text.
const NAMED: Record<string, string> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', rsquo: '’',
  lsquo: '‘', rdquo: '”', ldquo: '“', bull: '•', middot: '·', euro: '€', pound: '£', copy: '©', reg: '®', trade: '™',
  eacute: 'é', egrave: 'è', aacute: 'á', agrave: 'à', ouml: 'ö', uuml: 'ü', auml: 'ä', szlig: 'ß', ccedil: 'ç', ntilde: 'ñ',
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

const SCRIPT_OR_STYLE = /<(script|style)[^>]*>[\s\S]*?<\/\1>/gi;
const LIST_ITEM = /<li[^>]*>/gi;
const LINE_BREAK = /<br\s*\/?>/gi;
const BLOCK_END = /<\/(p|div|h[1-6]|ul|ol|tr|section|article|header|footer)>/gi;
const ANY_TAG = /<[^>]+>/g;
const EVERY_TAG = /(<li[^>]*>)|(<br\s*\/?>)|(<\/(?:p|div|h[1-6]|ul|ol|tr|section|article|header|footer)>)|<[^>]+>/gi;
/** A "<" before the ">" that closes an earlier "<": tags nest or a bare "<" is in the text. */
const NESTED_ANGLE = /<[^>]*</;

function tagAsText(_tag: string, listItem?: string, lineBreak?: string, blockEnd?: string): string {
  return listItem ? '\n• ' : lineBreak || blockEnd ? '\n' : ' ';
}

/** Tags to line breaks, bullets and spaces. */
function replaceTags(html: string): string {
  const text = html.replace(SCRIPT_OR_STYLE, ' ');
  // When every "<" is closed by its own ">", each tag is replaced on its own, so one pass gives what
  // the four passes of the general case give (there a pass can change what a later one matches).
  if (!NESTED_ANGLE.test(text)) return text.replace(EVERY_TAG, tagAsText);
  return text.replace(LIST_ITEM, '\n• ').replace(LINE_BREAK, '\n').replace(BLOCK_END, '\n').replace(ANY_TAG, ' ');
}

/** HTML (or entity-escaped HTML) to readable text: block elements become line breaks, list items bullets. */
export function htmlToText(html: string | null | undefined): string {
  if (!html) return '';
  let text = html;
  // Greenhouse's `content` is HTML escaped once more.
  if (/&lt;\/?[a-z]/i.test(text) && !/<\/?[a-z][^>]*>/i.test(text)) text = decodeEntities(text);
  // Only what needs changing is matched: single spaces and bare line breaks are left alone.
  return decodeEntities(replaceTags(text))
    .replace(/[ \t\u00a0]{2,}|[\t\u00a0]/g, ' ')
    .replace(/ +\n *|\n +/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
