import { TextDecoder } from 'node:util';

/**
 * The `encoding` of an XML declaration (`<?xml version="1.0" encoding="ISO-8859-1"?>`), read from
 * the first bytes in the encoding they are known to be in so far (ASCII-compatible bytes, or
 * UTF-16/32 by a byte-order mark or the zero bytes). Null when there is no declaration or it names
 * no encoding (XML then means UTF-8 or UTF-16).
 */
export interface XmlDeclaredEncoding {
  /** The name as written. */
  readonly name: string;
  /** 1-based column of the name on the first line (for an error about it). */
  readonly column: number;
}

const DECLARATION = /^<\?xml[ \t\r\n][^>]*?\bencoding[ \t\r\n]*=[ \t\r\n]*(["'])([^"'<>]*)\1/;

export function xmlDeclaredEncoding(head: Uint8Array, readAs: string): XmlDeclaredEncoding | null {
  const text = headText(head.subarray(0, 1024), readAs);
  const match = DECLARATION.exec(text);
  if (match === null) return null;
  return { name: match[2], column: match.index + match[0].length - match[2].length };
}

function headText(head: Uint8Array, readAs: string): string {
  if (readAs === 'utf-16le' || readAs === 'utf-16be') return new TextDecoder(readAs).decode(head);
  if (readAs === 'utf-32le' || readAs === 'utf-32be') {
    const view = new DataView(head.buffer, head.byteOffset, head.length - (head.length % 4));
    let text = '';
    for (let at = 0; at < view.byteLength; at += 4) text += String.fromCharCode(Math.min(view.getUint32(at, readAs === 'utf-32le'), 0xfffd));
    return text;
  }
  return Buffer.from(head.buffer, head.byteOffset, head.length).toString('latin1');
}
