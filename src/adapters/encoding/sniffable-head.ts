import { TextDecoder } from 'node:util';
import { byteOrderMarkOf } from './byte-order-mark.js';
import { canonicalEncoding } from './encoding-names.js';

/**
 * The first bytes of a file as the format sniffers read them (UTF-8, or UTF-16/32 after a
 * byte-order mark) when `--encoding` names an encoding they cannot read: an EBCDIC or UTF-16 file
 * without a mark is sniffed in UTF-8. For sniffing only: a byte that does not decode becomes
 * U+FFFD, which no signature matches (the reader then decodes strictly, see source-text.ts).
 */
export function sniffableHead(head: Buffer, encoding: string | undefined): Buffer {
  if (encoding === undefined || byteOrderMarkOf(head) !== null) return head;
  const name = canonicalEncoding(encoding);
  if (name === null || name === 'utf-8' || name === 'us-ascii') return head;
  if (name === 'utf-32le' || name === 'utf-32be') return Buffer.from(utf32Text(head, name === 'utf-32le'), 'utf8');
  return Buffer.from(new TextDecoder(name).decode(head), 'utf8');
}

function utf32Text(bytes: Buffer, littleEndian: boolean): string {
  let text = '';
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const point = littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
    text += point <= 0x10ffff && (point < 0xd800 || point > 0xdfff) ? String.fromCodePoint(point) : '\ufffd';
  }
  return text;
}
