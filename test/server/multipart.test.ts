import fc from 'fast-check';
import { MalformedBodyError } from '../../src/server/errors.js';
import { extractMultipartField, multipartBoundary } from '../../src/server/multipart.js';

function formBody(boundary: string, parts: Array<{ name: string; filename?: string; content: Buffer }>): Buffer {
  const pieces: Buffer[] = [Buffer.from('preamble to ignore\r\n')];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    pieces.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\nContent-Type: application/octet-stream\r\n\r\n`));
    pieces.push(part.content, Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\nepilogue`));
  return Buffer.concat(pieces);
}

async function* inChunks(body: Buffer, cuts: number[]): AsyncGenerator<Buffer> {
  let at = 0;
  for (const cut of [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b)) {
    yield body.subarray(at, cut);
    at = cut;
  }
  yield body.subarray(at);
}

async function extract(body: Buffer, boundary: string, cuts: number[] = []): Promise<{ file: Buffer; filename: string | null } | null> {
  const chunks: Buffer[] = [];
  const found = await extractMultipartField(inChunks(body, cuts), boundary, 'file', async (chunk) => {
    chunks.push(chunk);
  });
  return found && { file: Buffer.concat(chunks), filename: found.filename };
}

describe('multipart/form-data', () => {
  it('reads the boundary from the Content-Type, quoted or not, and nothing from other types', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----abc123')).toBe('----abc123');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/octet-stream')).toBeNull();
    expect(multipartBoundary(undefined)).toBeNull();
    expect(() => multipartBoundary('multipart/form-data')).toThrow(MalformedBodyError);
  });

  it('extracts the file field between other fields, with its file name', async () => {
    const body = formBody('XyZ', [
      { name: 'note', content: Buffer.from('first') },
      { name: 'file', filename: 'talk.vtt', content: Buffer.from('WEBVTT\r\n\r\nline') },
      { name: 'after', content: Buffer.from('last') },
    ]);
    expect(await extract(body, 'XyZ')).toEqual({ file: Buffer.from('WEBVTT\r\n\r\nline'), filename: 'talk.vtt' });
  });

  it('answers null when there is no file field, and refuses a body cut before its closing boundary', async () => {
    expect(await extract(formBody('b', [{ name: 'other', content: Buffer.from('x') }]), 'b')).toBeNull();
    const cut = formBody('b', [{ name: 'file', content: Buffer.from('x') }]).subarray(0, 60);
    await expect(extract(cut, 'b')).rejects.toThrow(MalformedBodyError);
  });

  it('gives back the exact bytes of the file however the body is chunked, even when they look like a delimiter', async () => {
    const boundary = '--boundary42';
    const content = fc.oneof(
      fc.uint8Array({ maxLength: 300 }).map((a) => Buffer.from(a)),
      // Near-misses of the delimiter inside the file are content, not the end of the part.
      fc.array(fc.constantFrom('\r\n', '--', boundary.slice(0, 5), '\r\n--' + boundary.slice(0, 8), 'x'), { maxLength: 30 }).map((p) => Buffer.from(p.join(''))),
    );
    await fc.assert(
      fc.asyncProperty(content, fc.array(fc.nat(), { maxLength: 12 }), async (file, cuts) => {
        const body = formBody(boundary, [{ name: 'a', content: Buffer.from('aa') }, { name: 'file', filename: 'f.bin', content: file }]);
        const found = await extract(body, boundary, cuts);
        expect(found?.file.equals(file)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});
