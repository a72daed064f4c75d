import { ENCODING_FLAG } from './encoding-flag.js';
import { FINDING_FORMATS } from './finding-output.js';
import type { FlagSpecs } from './flag-specs.js';

/** `annot validate`'s flags, read by the oclif command (commands/validate.ts) and the start-up fast path. */
export const VALIDATE_FLAGS = {
  format: { kind: 'string', description: 'output: text (file:line:col: severity: message [code]), json (one document), github (workflow commands)', options: FINDING_FORMATS, default: 'text' },
  json: { kind: 'boolean', description: 'the same as --format json' },
  strict: { kind: 'boolean', description: 'fail (exit 1) on warnings too' },
  'max-warnings': { kind: 'integer', description: 'fail (exit 1) when there are more warnings than this (-1: no limit)', min: -1 },
  from: { kind: 'string', description: 'input format, when the extension and content do not tell (scene for a scene on standard input)' },
  rate: { kind: 'integer', description: 'import rate for formats with float times', min: 1 },
  ...ENCODING_FLAG,
} as const satisfies FlagSpecs;
