// The files of a zip held in memory, inflated by Node's zlib (native) rather than in JavaScript:
// a Form D quarter is tens of MB of tables, and inflating them in JavaScript cost about as much as
// storing a quarter's offerings. Reads the central directory at the end of the archive, then each
// wanted file's data from its local header; stored (0) and deflated (8) files only, no ZIP64 (the
// archives read here are well under 4 GB).
import { inflateRawSync } from 'node:zlib';

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;

/** The files whose names `wanted` accepts, by name, inflated. Throws an Error saying why the bytes are not such a zip. */
export function unzipEntries(zip: Uint8Array, wanted: (name: string) => boolean): Record<string, Uint8Array> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  // The end-of-directory record is the last 22 bytes, unless a comment (at most 65,535 bytes) follows it.
  let end = -1;
  for (let at = zip.byteLength - 22; at >= Math.max(0, zip.byteLength - 22 - 0xffff); at--)
    if (view.getUint32(at, true) === END_OF_DIRECTORY) {
      end = at;
      break;
    }
  if (end < 0) throw new Error('no end of central directory');
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  if (at === 0xffffffff) throw new Error('ZIP64 archives are not read');
  const files: Record<string, Uint8Array> = {};
  const decoder = new TextDecoder();
  for (let i = 0; i < count; i++) {
    if (at + 46 > zip.byteLength || view.getUint32(at, true) !== DIRECTORY_ENTRY) throw new Error('a broken central directory');
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const size = view.getUint32(at + 24, true);
    const nameLength = view.getUint16(at + 28, true);
    const extraLength = view.getUint16(at + 30, true);
    const commentLength = view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    const name = decoder.decode(zip.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extraLength + commentLength;
    if (!wanted(name)) continue;
    if (local + 30 > zip.byteLength || view.getUint32(local, true) !== LOCAL_HEADER) throw new Error(`${name}: no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = zip.subarray(start, start + compressed);
    if (data.byteLength !== compressed) throw new Error(`${name}: the archive ends inside it`);
    if (method === 0) files[name] = data;
    else if (method === 8) {
      const out = inflateRawSync(data);
      if (out.byteLength !== size) throw new Error(`${name}: inflated to ${out.byteLength} bytes, not ${size}`);
      files[name] = out;
    } else throw new Error(`${name}: compression method ${method} is not read`);
  }
  return files;
}
