/**
 * Content sniffers: cheap checks on the first bytes of a file (up to 64 KiB, possibly cut in the
 * middle of a token), so they look for signatures rather than parse.
 */

/**
 * Bytes as text for sniffing only (lenient: a broken byte becomes U+FFFD, which no signature
 * matches; readers decode with source-text.ts), honouring a UTF-8, UTF-16 or UTF-32 byte-order
 * mark, which is dropped.
 */
export function decodeText(head: Buffer): string {
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xfe && head[2] === 0 && head[3] === 0) return utf32Text(head.subarray(4), true);
  if (head.length >= 4 && head[0] === 0 && head[1] === 0 && head[2] === 0xfe && head[3] === 0xff) return utf32Text(head.subarray(4), false);
  if (head.length >= 2 && head[0] === 0xff && head[1] === 0xfe) return head.subarray(2).toString('utf16le');
  if (head.length >= 2 && head[0] === 0xfe && head[1] === 0xff) return swapBytes(head.subarray(2)).toString('utf16le');
  if (head.length >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf) return head.subarray(3).toString('utf8');
  // UTF-16 without a BOM still shows as every other byte being zero in ASCII-heavy text.
  if (head.length >= 4 && head[0] !== 0 && head[1] === 0 && head[2] !== 0 && head[3] === 0) return head.toString('utf16le');
  if (head.length >= 4 && head[0] === 0 && head[1] !== 0 && head[2] === 0 && head[3] !== 0) return swapBytes(head).toString('utf16le');
  return head.toString('utf8');
}

function utf32Text(bytes: Buffer, littleEndian: boolean): string {
  let text = '';
  for (let at = 0; at + 4 <= bytes.length; at += 4) {
    const point = littleEndian ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at);
    text += point <= 0x10ffff ? String.fromCodePoint(point) : '\ufffd';
  }
  return text;
}

function swapBytes(bytes: Buffer): Buffer {
  const copy = Buffer.from(bytes.subarray(0, bytes.length - (bytes.length % 2)));
  copy.swap16();
  return copy;
}

export function isSqlite(head: Buffer): boolean {
  return head.subarray(0, 16).toString('latin1') === 'SQLite format 3\u0000';
}

export function isGzip(head: Buffer): boolean {
  return head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
}

export function looksLikeWebVtt(head: Buffer): boolean {
  return /^WEBVTT(?:[ \t\r\n]|$)/.test(decodeText(head));
}

export function looksLikeTextGrid(head: Buffer): boolean {
  return /^\s*File type\s*=\s*"ooTextFile"/.test(decodeText(head));
}

export function looksLikeEaf(head: Buffer): boolean {
  return /<ANNOTATION_DOCUMENT[\s>]/.test(decodeText(head));
}

export function looksLikeSrt(head: Buffer): boolean {
  return /^\s*(?:\d+\s*\r?\n)?\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}\s*-->\s*\d{1,2}:\d{2}:\d{2}[,.]\d{1,3}/.test(decodeText(head));
}

export function looksLikeOtio(head: Buffer): boolean {
  const text = decodeText(head).trimStart();
  return text.startsWith('{') && /"OTIO_SCHEMA"\s*:/.test(text);
}

export function looksLikeJams(head: Buffer): boolean {
  if (isGzip(head)) return true; // .jamz: the only gzip format we know
  const text = decodeText(head).trimStart();
  if (!text.startsWith('{') || !/"annotations"\s*:/.test(text)) return false;
  // file_metadata may come after 64 KiB of annotations (Python writes keys in insertion order).
  return /"file_metadata"\s*:/.test(text) || (/"namespace"\s*:/.test(text) && /"annotation_metadata"\s*:/.test(text));
}

export function looksLikeLabelStudio(head: Buffer): boolean {
  const text = decodeText(head).trimStart();
  if (!text.startsWith('[') && !text.startsWith('{')) return false;
  // JAMS also has "annotations" and "data"; its "namespace" and "annotation_metadata" tell it apart.
  if (/"namespace"\s*:/.test(text) && /"annotation_metadata"\s*:/.test(text)) return false;
  // A task's annotations hold `result` lists (empty in a task nobody labelled yet).
  const tasks = /"(?:annotations|predictions|completions)"\s*:/.test(text);
  return (tasks && /"result"\s*:/.test(text)) || (/"(?:annotations|predictions|completions|result)"\s*:/.test(text) && /"(?:data|from_name|to_name)"\s*:/.test(text));
}

export function looksLikeWebAnnotation(head: Buffer): boolean {
  const text = decodeText(head).trimStart();
  if (!text.startsWith('{') && !text.startsWith('[')) return false;
  return /w3\.org\/ns\/anno\.jsonld/.test(text) || /"type"\s*:\s*"(?:Annotation|AnnotationCollection|AnnotationPage)"/.test(text);
}

/** JSON of any shape: the first character is `{` or `[`. */
export function looksLikeJson(head: Buffer): boolean {
  return /^\s*[{[]/.test(decodeText(head));
}

/** XML of any vocabulary: the first character is `<`. */
export function looksLikeXml(head: Buffer): boolean {
  return /^\s*</.test(decodeText(head));
}

/** SubStation Alpha: a `[Script Info]` first (after comments), or an `[Events]` section with Dialogue lines. */
export function looksLikeAss(head: Buffer): boolean {
  const text = decodeText(head);
  if (/^(?:\s*;[^\n]*\n)*\s*\[Script Info\]/i.test(text)) return true;
  return /^\s*\[Events\]\s*$/im.test(text) && /^\s*(?:Dialogue|Format):/m.test(text);
}

/** YouTube's SBV: the first line that is not blank is a timing line `0:00:01.000,0:00:03.500`. */
export function looksLikeSbv(head: Buffer): boolean {
  return /^\s*\d+:\d{1,2}:\d{1,2}\.\d{1,3},\d+:\d{1,2}:\d{1,2}\.\d{1,3}\s*(?:\r?\n|$)/.test(decodeText(head));
}

/**
 * TTML (and DFXP): the root element is `tt` in the TTML namespace (or one of the two DFXP drafts'),
 * prefixed or not, after the XML declaration, comments and a DOCTYPE.
 */
export function looksLikeTtml(head: Buffer): boolean {
  const text = decodeText(head);
  const root = /^(?:\s|<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>)*<((?:[A-Za-z_][\w.-]*:)?tt)[\s>/]/.exec(text);
  if (root === null) return false;
  const end = text.indexOf('>', root.index + root[0].length - 1);
  const tag = text.slice(root.index, end === -1 ? undefined : end);
  return /xmlns(?::[\w.-]+)?\s*=\s*["']http:\/\/www\.w3\.org\/(?:ns\/ttml|2006\/(?:04|10)\/ttaf1)["']/.test(tag);
}
