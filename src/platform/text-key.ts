/** Lower case, accents stripped, punctuation turned into spaces, spaces collapsed: a matching key. */
export function textKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
