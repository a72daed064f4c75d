import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AnnotationService } from '../service/annotation-service.js';
import { InvalidInputError } from '../errors/annot-error.js';

/** What every route module gets: the service it is a skin over, the limits and a scratch folder. */
export interface RouteContext {
  readonly service: AnnotationService;
  /** Largest /import upload, in bytes. */
  readonly maxImportBytes: number;
  /** A private folder for uploads and exports in flight, removed when the server closes. */
  readonly scratchDir: string;
  /** Where the server reports what no response carries (the same as its internal errors). */
  readonly log: (line: string) => void;
}

/** Who the op-log records as making a change: the `X-Actor` header, else `anonymous`. */
export function actorOf(request: FastifyRequest): string {
  const header = request.headers['x-actor'];
  if (header === undefined) return 'anonymous';
  const actor = Array.isArray(header) ? header[0] : header;
  if (actor.trim() === '' || actor.length > 200) throw new InvalidInputError('X-Actor: expected a non-empty name of at most 200 characters');
  return actor.trim();
}

/** Every mutation answers with the Lamport clock it got. */
export function withClock(reply: FastifyReply, clock: number): FastifyReply {
  return reply.header('X-Service-Clock', String(clock));
}
