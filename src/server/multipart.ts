import { MalformedBodyError } from './errors.js';

/** The boundary of a `multipart/form-data` Content-Type, or null when the type is something else. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^multipart\/form-data\s*(;|$)/i.test(contentType)) return null;
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  if (!match) throw new MalformedBodyError('multipart/form-data without a boundary parameter; let your HTTP client build the Content-Type');
  return match[1] ?? match[2];
}

export interface MultipartFile {
  readonly filename: string | null;
  readonly contentType: string | null;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');
const MAX_HEADER_BYTES = 16 * 1024;

/**
 * Streams the contents of one field of a multipart/form-data body (RFC 7578) into `sink`,
 * without holding the body in memory: parts are cut at the delimiter `CRLF--boundary`, keeping
 * back only as many bytes as a delimiter could straddle. Other fields are read and dropped.
 * Returns the field's file name and type, or null when the body has no such field.
 */
export async function extractMultipartField(
  body: AsyncIterable<Buffer>,
  boundary: string,
  field: string,
  sink: (chunk: Buffer) => Promise<void>,
): Promise<MultipartFile | null> {
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // The first delimiter has no CRLF before it; pretending it had makes every delimiter alike.
  let pending: Buffer = CRLF;
  let state: 'preamble' | 'after-delimiter' | 'headers' | 'content' | 'epilogue' = 'preamble';
  let current: MultipartFile | null = null;
  let found: MultipartFile | null = null;
  let ended = false;

  const step = async (final: boolean): Promise<boolean> => {
    switch (state) {
      case 'preamble':
      case 'content': {
        const at = pending.indexOf(delimiter);
        if (at < 0) {
          // Everything but a possible delimiter prefix at the end is content.
          const keep = final ? 0 : Math.min(pending.length, delimiter.length - 1);
          const content = pending.subarray(0, pending.length - keep);
          if (state === 'content' && current && content.length > 0) await sink(Buffer.from(content));
          pending = pending.subarray(pending.length - keep);
          return false;
        }
        if (state === 'content' && current && at > 0) await sink(Buffer.from(pending.subarray(0, at)));
        if (current) found = current;
        current = null;
        pending = pending.subarray(at + delimiter.length);
        state = 'after-delimiter';
        return true;
      }
      case 'after-delimiter': {
        if (pending.length < 2) return false;
        if (pending[0] === 0x2d && pending[1] === 0x2d) {
          state = 'epilogue';
          ended = true;
          return true;
        }
        // Transport padding (spaces, tabs) may follow a delimiter before its CRLF.
        const eol = pending.indexOf(CRLF);
        if (eol < 0) return false;
        if (pending.subarray(0, eol).toString('latin1').trim() !== '') throw new MalformedBodyError('multipart body: unexpected bytes after a boundary delimiter');
        pending = pending.subarray(eol + 2);
        state = 'headers';
        return true;
      }
      case 'headers': {
        const end = pending.indexOf(HEADER_END);
        // A part without headers starts right away with CRLF.
        if (pending.length >= 2 && pending[0] === 0x0d && pending[1] === 0x0a) {
          pending = pending.subarray(2);
          state = 'content';
          current = null;
          return true;
        }
        if (end < 0) {
          if (pending.length > MAX_HEADER_BYTES) throw new MalformedBodyError('multipart body: part headers longer than 16 KiB');
          return false;
        }
        const headers = parseHeaders(pending.subarray(0, end).toString('utf8'));
        pending = pending.subarray(end + 4);
        const disposition = parseDisposition(headers.get('content-disposition'));
        current = disposition?.name === field && found === null ? { filename: disposition.filename, contentType: headers.get('content-type') ?? null } : null;
        state = 'content';
        return true;
      }
      case 'epilogue':
        pending = Buffer.alloc(0);
        return false;
    }
  };

  for await (const chunk of body) {
    pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
    while (await step(false));
  }
  while (await step(true));
  if (!ended) throw new MalformedBodyError('multipart body ends before its closing boundary; the upload was cut short');
  return found;
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw new MalformedBodyError(`multipart body: malformed part header ${JSON.stringify(line.slice(0, 80))}`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

function parseDisposition(value: string | undefined): { name: string | null; filename: string | null } | null {
  if (!value || !/^form-data\s*(;|$)/i.test(value)) return null;
  const param = (key: string): string | null => {
    const match = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]+))`, 'i').exec(value);
    if (!match) return null;
    return match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2];
  };
  return { name: param('name'), filename: param('filename') };
}
