import { AsyncLocalStorage } from 'node:async_hooks';
import { redactSecrets } from '../text/secret-redaction.js';

/** The credentials a render runs under (withCredentials). */
export interface Credentials {
  /** A fal.ai API key (sent as `Authorization: Key <falKey>`). */
  falKey?: string;
}

const scope = new AsyncLocalStorage<Credentials>();

/**
 * Runs `fn` with credentials bound to its async context. Every model call started inside —
 * including every concurrent unit of a scene render, since AsyncLocalStorage follows promises,
 * timers and pooled tasks created within — is made under these credentials, so a server
 * rendering on behalf of a user bills the user's key, not the operator's. An empty key leaves
 * the current binding in place; scopes nest.
 */
export function withCredentials<T>(credentials: Credentials, fn: () => T): T {
  if (!credentials.falKey) return fn();
  const merged = { ...(scope.getStore() ?? {}), ...credentials };
  return scope.run(merged, fn);
}

/** The key a fal call made now should use: the bound one, else the operator's FAL_KEY, else none. */
export function currentFalKey(): string | undefined {
  return scope.getStore()?.falKey || process.env.FAL_KEY || undefined;
}

/** Whether a key is bound by withCredentials (the CLI's `auto` provider asks this). */
export function hasBoundCredentials(): boolean {
  return Boolean(scope.getStore()?.falKey);
}

/**
 * A text with every credential taken out (see redactSecrets): the key bound now, the operator's
 * FAL_KEY, and anything that looks like an Authorization value. The guard where render messages
 * leave annot: events, the manifest and its failures.
 */
export function withoutCredentials(text: string): string {
  return redactSecrets(text, [scope.getStore()?.falKey, process.env.FAL_KEY]);
}
