import { ENCODING_FLAG } from './encoding-flag.js';
import type { FlagSpecs } from './flag-specs.js';
import { RETIME_FLAGS } from './retime-flags.js';

/** `annot convert`'s flags, read by the oclif command (commands/convert.ts) and the start-up fast path. */
export const CONVERT_FLAGS = {
  from: { kind: 'string', description: 'input format (default: from the extension, then the content)' },
  to: { kind: 'string', description: 'output format (default: from the extension; required with --out-dir)' },
  rate: { kind: 'integer', description: 'import rate in ticks per second for formats with float times', min: 1 },
  ...ENCODING_FLAG,
  strict: { kind: 'boolean', description: 'fail (exit 1, nothing written) when the reader reports any finding: a repaired, dropped or guessed part of the input, or a retime would cut or drop an annotation before 0 s' },
  'strict-time': { kind: 'boolean', description: 'fail instead of rounding a time that is not exact at the import rate, or that a retime moves between two ticks of it' },
  'asset-id': { kind: 'string', description: 'asset id for formats whose files do not name their media' },
  tier: { kind: 'string', description: 'tier name for formats without tiers (import), or the tier to write (export)' },
  variant: { kind: 'string', description: 'output variant where a format has several (textgrid: long or short)' },
  'out-dir': { kind: 'string', description: 'convert every input into this folder (batch form): each output is named after its input, with the extension of --to' },
  recursive: { kind: 'boolean', description: 'with --out-dir: convert the files of known formats inside folder inputs and their sub-folders, keeping the sub-folders under --out-dir' },
  jobs: { kind: 'integer', description: 'with --out-dir: how many files are converted at once (default: the number of CPUs)', min: 1 },
  ...RETIME_FLAGS,
  'sync-to': {
    kind: 'string',
    description:
      'retime: align the cues to the speech in this media\'s audio first, as annot sync does (offset within ±60 s, and a frame-rate ratio); a low confidence writes nothing (--strict: fails)',
  },
} as const satisfies FlagSpecs;

/** The flags that only the batch form (`--out-dir`) takes. */
export const BATCH_ONLY_FLAGS = ['out-dir', 'recursive', 'jobs'] as const;
