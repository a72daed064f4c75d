import { createWriteStream } from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { BodyTooLargeError, MalformedBodyError } from './errors.js';

export interface SpooledUpload {
  readonly path: string;
  readonly bytes: number;
  /** The client's file name (multipart uploads that give one). */
  readonly filename: string | null;
}

/**
 * Writes an uploaded file to `path` as it arrives, never holding it in memory: the raw request
 * body, or the `file` field of a multipart/form-data body (parsed by @fastify/multipart, which the
 * route's scope registers). Stops with BodyTooLargeError as soon as more than `limit` bytes
 * arrived (before reading anything when Content-Length says so).
 */
export async function spoolUpload(request: FastifyRequest, path: string, limit: number): Promise<SpooledUpload> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) throw new BodyTooLargeError(limit);
  if (!request.isMultipart()) {
    const bytes = await spool(limited(request.raw, limit), path);
    return { path, bytes, filename: null };
  }
  let found: SpooledUpload | undefined;
  try {
    // Read to the end: fields other than `file` are dropped, a second file is refused (limits.files).
    for await (const part of request.parts({ limits: { fileSize: limit, files: 1, fieldSize: 64 * 1024 } })) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'file' || found) {
        part.file.resume();
        continue;
      }
      const bytes = await spool(part.file, path);
      if (part.file.truncated) throw new BodyTooLargeError(limit);
      found = { path, bytes, filename: part.filename || null };
    }
  } catch (error) {
    throw multipartFailure(error, limit);
  }
  if (!found) throw new MalformedBodyError('the multipart body has no field named "file"; send the file as -F file=@path (or as the raw request body)');
  return found;
}

async function spool(body: AsyncIterable<Buffer> | Readable, path: string): Promise<number> {
  let bytes = 0;
  await pipeline(
    body,
    async function* (source: AsyncIterable<Buffer>) {
      for await (const chunk of source) {
        bytes += chunk.length;
        yield chunk;
      }
    },
    createWriteStream(path, { flags: 'wx' }),
  );
  return bytes;
}

/** @fastify/multipart's errors in our vocabulary: over a limit is 413, anything else a malformed body. */
function multipartFailure(error: unknown, limit: number): unknown {
  if (error instanceof BodyTooLargeError || error instanceof MalformedBodyError) return error;
  const code = (error as { code?: unknown })?.code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return new BodyTooLargeError(limit);
  if (code === 'FST_FILES_LIMIT') return new MalformedBodyError('the multipart body has more than one file; send one file, as the field "file"');
  return new MalformedBodyError(`the multipart body cannot be read: ${(error as Error)?.message ?? String(error)}`, { cause: error });
}

async function* limited(body: AsyncIterable<Buffer>, limit: number): AsyncGenerator<Buffer> {
  let received = 0;
  for await (const chunk of body) {
    received += chunk.length;
    if (received > limit) throw new BodyTooLargeError(limit);
    yield chunk;
  }
}
