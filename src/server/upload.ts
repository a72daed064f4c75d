import { open } from 'node:fs/promises';
import type { IncomingMessage } from 'node:http';
import { BodyTooLargeError, MalformedBodyError } from './errors.js';
import { extractMultipartField, multipartBoundary } from './multipart.js';

export interface SpooledUpload {
  readonly path: string;
  readonly bytes: number;
  /** The client's file name (multipart uploads that give one). */
  readonly filename: string | null;
}

/**
 * Writes an uploaded file to `path` as it arrives, never holding it in memory: the raw request
 * body, or the `file` field of a multipart/form-data body. Stops with BodyTooLargeError as soon
 * as more than `limit` bytes arrived (before reading anything when Content-Length says so).
 */
export async function spoolUpload(request: IncomingMessage, path: string, limit: number): Promise<SpooledUpload> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  const boundary = multipartBoundary(request.headers['content-type']);
  const file = await open(path, 'wx');
  let written = 0;
  try {
    const write = async (chunk: Buffer): Promise<void> => {
      written += chunk.length;
      await file.write(chunk);
    };
    const body = limited(request, limit);
    if (boundary === null) {
      for await (const chunk of body) await write(chunk);
      return { path, bytes: written, filename: null };
    }
    const found = await extractMultipartField(body, boundary, 'file', write);
    if (!found) throw new MalformedBodyError('the multipart body has no field named "file"; send the file as -F file=@path (or as the raw request body)');
    return { path, bytes: written, filename: found.filename };
  } finally {
    await file.close();
  }
}

async function* limited(request: IncomingMessage, limit: number): AsyncGenerator<Buffer> {
  let received = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    received += chunk.length;
    if (received > limit) throw new BodyTooLargeError(limit);
    yield chunk;
  }
}
