// multipart/form-data bodies, read by hand for the one call that takes them (POST /bulk/file, a
// list's file and its fields): the parts between the boundaries, each with its name, its file name
// and its type. The body arrives as a latin1 string (one character a byte, so nothing is decoded
// twice); a part's bytes are given back as a Buffer.
import { InvalidRequestError } from '../operations/errors.ts';

export interface FormPart {
  name: string;
  filename: string | null;
  type: string;
  body: Buffer;
}

/** More parts than a list's file and its few fields. */
const MAX_PARTS = 20;

const refused = (why: string) =>
  new InvalidRequestError(`The multipart body cannot be read: ${why}.`, [{ field: '/', message: 'is not multipart/form-data' }]);

/** A header's parameter (`name="file"`), unquoted. */
const parameter = (header: string, name: string) =>
  new RegExp(`(?:^|;)\\s*${name}\\s*=\\s*(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]*))`, 'i')
    .exec(header)
    ?.slice(1)
    .find((v) => v !== undefined) ?? null;

/** The parts of a multipart/form-data body whose Content-Type is `contentType`. */
export function formParts(body: string, contentType: string): FormPart[] {
  const boundary = parameter(contentType, 'boundary')?.trim();
  if (!boundary) throw refused('its Content-Type names no boundary');
  const delimiter = `--${boundary}`;
  const pieces = body.split(delimiter);
  // Before the first delimiter: a preamble; after the last ("--"): the end.
  if (pieces.length < 3 || !pieces[pieces.length - 1].startsWith('--')) throw refused('it does not end with its closing boundary');
  const parts = pieces.slice(1, -1);
  if (parts.length > MAX_PARTS) throw refused(`it has more than ${MAX_PARTS} parts`);
  return parts.map((piece) => {
    const content = piece.replace(/^\r\n/, '').replace(/\r\n$/, '');
    const split = content.indexOf('\r\n\r\n');
    if (split < 0) throw refused('a part has no blank line after its headers');
    const headers = Object.fromEntries(
      content
        .slice(0, split)
        .split('\r\n')
        .map((line) => [line.slice(0, line.indexOf(':')).trim().toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
    );
    const disposition = headers['content-disposition'] ?? '';
    const name = parameter(disposition, 'name');
    if (!/^form-data/i.test(disposition) || name === null) throw refused('a part has no form-data name');
    return {
      name,
      filename: parameter(disposition, 'filename'),
      type: (headers['content-type'] ?? '').split(';')[0].trim().toLowerCase(),
      body: Buffer.from(content.slice(split + 4), 'latin1'),
    };
  });
}
