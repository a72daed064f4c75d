import { UsageError } from '../errors/annot-error.js';
import { redactLocation } from '../service/open-service-store.js';

/**
 * Where `annot serve` and `annot mcp` keep their annotations: FILE or the --store project, never
 * both. oclif's `exclusive` relates flags only, and FILE is an argument, so the pair is refused
 * here (exit 2) instead of the file being ignored in silence.
 */
export function storeLocation(command: string, file: string | undefined, store: string | undefined): string | undefined {
  if (file !== undefined && store !== undefined) throw new UsageError(`${command} takes FILE or --store, not both (given ${redactLocation(file)} and --store)`);
  return store ?? file;
}
