import { createHash, timingSafeEqual } from 'node:crypto';
import { UnauthorizedError } from './errors.js';

/** Paths anyone may call on a server with a token: liveness probes carry no credentials. */
export const PUBLIC_PATHS: ReadonlySet<string> = new Set(['/health']);

export const WWW_AUTHENTICATE_REALM = 'Bearer realm="annot"';

/**
 * Checks `Authorization: Bearer <token>` (RFC 6750). The comparison hashes both sides first, so
 * it takes the same time whatever the length or the first differing byte of a guess.
 */
export function bearerChecker(token: string): (authorization: string | undefined) => void {
  const expected = digest(token);
  return (authorization) => {
    const match = /^Bearer[ ]+([^\s]+)\s*$/i.exec(authorization ?? '');
    if (!match) {
      throw new UnauthorizedError(
        authorization ? 'the Authorization header is not "Bearer <token>"' : 'this server needs a token: send Authorization: Bearer <token> (the --token or ANNOT_TOKEN it was started with)',
      );
    }
    if (!timingSafeEqual(digest(match[1]), expected)) throw new UnauthorizedError('the bearer token is not the one this server was started with');
  };
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value, 'utf8').digest();
}
