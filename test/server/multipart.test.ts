import fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir, writeSampleAnnot } from '../support/sample-annot.js';
import { startTestServer, type TestServer } from './http-client.js';

// Uploads to POST /import as multipart/form-data (parsed by @fastify/multipart), built by hand so
// the boundary, the parts and the chunking are the test's own.

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

/** The body as a stream cut at the given offsets (no Content-Length: sent chunked). */
function inChunks(body: Buffer, cuts: number[]): ReadableStream<Uint8Array> {
  const offsets = [...new Set(cuts.map((c) => c % (body.length + 1)))].sort((a, b) => a - b);
  return new ReadableStream({
    start(controller) {
      let at = 0;
      for (const cut of [...offsets, body.length]) {
        if (cut > at) controller.enqueue(new Uint8Array(body.subarray(at, cut)));
        at = cut;
      }
      controller.close();
    },
  });
}

describe('multipart/form-data uploads', () => {
  const { dir, cleanup } = tempDir();
  let sample: Buffer;
  let t: TestServer;
  beforeAll(async () => {
    const path = join(dir, 'talk.annot');
    await writeSampleAnnot(path);
    sample = readFileSync(path);
  });
  afterAll(cleanup);
  beforeEach(async () => {
    t = await startTestServer({ maxImportBytes: 1024 * 1024 });
  });
  afterEach(() => t.close());
  /** Each import of the sample needs a store without its annotation ids. */
  const restart = async () => {
    await t.close();
    t = await startTestServer({ maxImportBytes: 1024 * 1024 });
  };

  const post = (body: Buffer | ReadableStream<Uint8Array>, contentType: string) =>
    fetch(`${t.url}/import?format=annot`, { method: 'POST', headers: { 'content-type': contentType }, body, duplex: 'half' } as RequestInit);

  it('takes the file field between other fields, with the boundary quoted or not', async () => {
    const parts = [
      { name: 'note', content: Buffer.from('first') },
      { name: 'file', filename: 'talk.annot', content: sample },
      { name: 'after', content: Buffer.from('last') },
    ];
    for (const contentType of ['multipart/form-data; boundary=----abc123', 'Multipart/Form-Data; charset=utf-8; boundary="----abc123"']) {
      const answer = await post(formBody('----abc123', parts), contentType);
      expect([contentType, answer.status, answer.status === 201 ? "" : await answer.text()]).toEqual([contentType, 201, ""]);
      expect(await answer.json()).toMatchObject({ annotations_added: 6 });
      await restart();
    }
  });

  it('answers 400 without a boundary, without a file field, with two files, and for a body cut before its closing boundary', async () => {
    const file = { name: 'file', filename: 'f', content: sample };
    const cases: Array<[string, Buffer, string]> = [
      ['no boundary', formBody('b', [file]), 'multipart/form-data'],
      ['no file field', formBody('b', [{ name: 'other', content: Buffer.from('x') }]), 'multipart/form-data; boundary=b'],
      ['two files', formBody('b', [file, { ...file, name: 'file2' }]), 'multipart/form-data; boundary=b'],
      ['cut', formBody('b', [file]).subarray(0, 200), 'multipart/form-data; boundary=b'],
    ];
    for (const [name, body, contentType] of cases) {
      const answer = await post(body, contentType);
      const error = ((await answer.json()) as { error: { code: string } }).error;
      expect([name, answer.status, error.code]).toEqual([name, 400, 'ANNOT_MALFORMED_BODY']);
    }
    expect(((await (await fetch(`${t.url}/oplog/latest-clock`)).json()) as { clock: number }).clock).toBe(0);
  });

  it('answers 413 for a file over the import limit sent chunked, without Content-Length', async () => {
    const big = formBody('b', [{ name: 'file', filename: 'big', content: Buffer.alloc(1024 * 1024 + 1, 0x61) }]);
    const answer = await post(inChunks(big, [1000, 300_000, 700_000]), 'multipart/form-data; boundary=b');
    expect(answer.status).toBe(413);
    expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('ANNOT_BODY_TOO_LARGE');
  });

  it('receives the exact bytes of the file however the body is chunked', async () => {
    const boundary = '--boundary42';
    const body = formBody(boundary, [{ name: 'a', content: Buffer.from('aa') }, { name: 'file', filename: 'f.annot', content: sample }]);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.nat(), { maxLength: 12 }), async (cuts) => {
        await restart();
        const answer = await post(inChunks(body, cuts), `multipart/form-data; boundary=${boundary}`);
        // A file with one byte changed is no SQLite database with these six annotations.
        expect(answer.status).toBe(201);
        expect(await answer.json()).toMatchObject({ annotations_added: 6 });
      }),
      { numRuns: 15 },
    );
  });
});
