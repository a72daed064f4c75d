import { TextDecoder } from 'node:util';
import { closestName } from '../../text/nearest-name.js';
import { UnknownEncodingError } from '../errors.js';

/**
 * The encodings annot reads, by name: every label of the WHATWG Encoding Standard that Node's
 * TextDecoder (full ICU) knows, under its canonical name (`latin1` and `iso-8859-1` are
 * `windows-1252`, `utf-16` is `utf-16le`, `sjis` is `shift_jis`), plus what the standard leaves
 * out and users still meet: UTF-32 in either byte order, and `us-ascii` as strict 7-bit ASCII
 * (the standard reads `ascii` as windows-1252, so a user asking for ASCII would never hear of a
 * byte above 0x7F).
 */

/** The names annot adds to TextDecoder's, by label. */
const OWN_ENCODINGS: Readonly<Record<string, string>> = {
  'utf-32': 'utf-32le',
  'utf-32le': 'utf-32le',
  'utf-32be': 'utf-32be',
  utf32: 'utf-32le',
  ascii: 'us-ascii',
  'us-ascii': 'us-ascii',
};

/**
 * Names shown when a name is unknown, and the candidates for "did you mean": the common ones,
 * not every label (the standard has over two hundred).
 */
export const COMMON_ENCODINGS: readonly string[] = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'utf-32le',
  'utf-32be',
  'us-ascii',
  'windows-1250',
  'windows-1251',
  'windows-1252',
  'windows-1253',
  'windows-1254',
  'windows-1255',
  'windows-1256',
  'windows-1257',
  'windows-1258',
  'iso-8859-1',
  'iso-8859-2',
  'iso-8859-5',
  'iso-8859-7',
  'iso-8859-15',
  'koi8-r',
  'koi8-u',
  'macintosh',
  'ibm866',
  'shift_jis',
  'euc-jp',
  'iso-2022-jp',
  'euc-kr',
  'big5',
  'gbk',
  'gb18030',
];

/** Labels people type that are close to a listed name, for "did you mean". */
const TYPED_LABELS: readonly string[] = [...COMMON_ENCODINGS, 'latin1', 'latin2', 'cp1250', 'cp1251', 'cp1252', 'sjis', 'utf8', 'utf-16', 'utf-32'];

/** The canonical name of an encoding label, or null when nothing decodes it. */
export function canonicalEncoding(label: string): string | null {
  const name = label.trim().toLowerCase();
  if (Object.hasOwn(OWN_ENCODINGS, name)) return OWN_ENCODINGS[name];
  try {
    return new TextDecoder(name).encoding;
  } catch {
    return null;
  }
}

/**
 * The canonical name of an encoding the user named (`--encoding`, `?encoding=`), or an
 * UnknownEncodingError that suggests the nearest name and lists common ones.
 */
export function resolveEncoding(label: string): string {
  const encoding = canonicalEncoding(label);
  if (encoding !== null) return encoding;
  const near = closestName(label.trim(), TYPED_LABELS);
  const suggestion = near === undefined ? '' : ` (did you mean "${near}"?)`;
  throw new UnknownEncodingError(`unknown encoding "${label}"${suggestion}; known encodings include ${COMMON_ENCODINGS.join(', ')}, and any label of the WHATWG Encoding Standard`);
}

/** Whether an encoding writes ASCII characters as single ASCII bytes (all but UTF-16 and UTF-32). */
export function isAsciiCompatible(encoding: string): boolean {
  return !encoding.startsWith('utf-16') && !encoding.startsWith('utf-32');
}

/** How messages write an encoding's name: UTF-8, UTF-16LE..., the legacy ones as named. */
export function encodingLabel(encoding: string): string {
  return encoding.startsWith('utf-') ? encoding.toUpperCase() : encoding;
}
