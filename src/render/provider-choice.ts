import { join } from 'node:path';
import { InvalidInputError } from '../errors/annot-error.js';
import { defaultCacheDir } from './cache.js';
import { currentFalKey } from './credentials.js';
import { MissingFalKeyError } from './errors.js';
import { FalProvider } from './providers/fal/fal-provider.js';
import { LocalProvider } from './providers/local.js';
import type { Provider } from './providers/provider.js';

export const PROVIDER_CHOICES = ['auto', 'fal', 'local'] as const;
export type ProviderChoice = (typeof PROVIDER_CHOICES)[number];

export class UnknownProviderError extends InvalidInputError {
  override readonly code = 'ANNOT_UNKNOWN_PROVIDER';

  constructor(readonly choice: string) {
    super(`unknown provider "${choice}"; expected one of ${PROVIDER_CHOICES.join(', ')}.`);
  }
}

export const LOCAL_MEDIA_DIR_NAME = 'local';

/**
 * The provider for a choice. `auto` is fal when a key is bound (withCredentials) or FAL_KEY is
 * set, otherwise the offline local provider — with a one-line notice, so nobody mistakes a
 * preview for a paid render. The local provider keeps its media in `<cache dir>/local`.
 * `fal` without any key fails here, before a unit starts (MissingFalKeyError), unless
 * `requireKey` is false (a dry-run plan calls nothing).
 */
export function chooseProvider(choice: string = 'auto', options: { cacheDir?: string; notice?: (text: string) => void; falBaseUrl?: string; requireKey?: boolean } = {}): Provider {
  if (!(PROVIDER_CHOICES as readonly string[]).includes(choice)) throw new UnknownProviderError(choice);
  if (choice === 'fal' && options.requireKey !== false && !currentFalKey()) throw new MissingFalKeyError();
  const useFal = choice === 'fal' || (choice === 'auto' && Boolean(currentFalKey()));
  if (useFal) return defaultProvider(options);
  if (choice === 'auto') {
    options.notice?.('no fal key (FAL_KEY) is set: rendering an offline preview with the local provider (--provider fal to insist on fal)');
  }
  return new LocalProvider({ dir: join(options.cacheDir ?? defaultCacheDir(), LOCAL_MEDIA_DIR_NAME) });
}

/**
 * The provider of a render that names none (a library call without `provider`): fal, reading its
 * key at each call. The one place a fal provider is built for a render.
 */
export function defaultProvider(options: { falBaseUrl?: string } = {}): Provider {
  return new FalProvider({ baseUrl: options.falBaseUrl });
}
