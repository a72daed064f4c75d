import type { FlagSpecs } from './flag-specs.js';

/**
 * `--encoding`, as every command that reads a text file takes it (convert, validate, query, diff,
 * agree, serve): the input's text encoding, for files whose bytes do not say it themselves.
 */
export const ENCODING_FLAG = {
  encoding: {
    kind: 'string',
    description: "the input's text encoding (utf-8, windows-1252, shift_jis...; default: a byte-order mark, else UTF-8, else detected with a warning). A byte-order mark still decides; what annot writes is UTF-8",
  },
} as const satisfies FlagSpecs;
