import type { ConvertRequest } from '../service/convert-file.js';

/** `annot convert`'s arguments and flags, as oclif parses them (and the start-up fast path does): the request's own fields. */
export type ConvertArguments = Pick<ConvertRequest, 'input' | 'output' | 'from' | 'to' | 'rate' | 'encoding' | 'strict' | 'strictTime' | 'assetId' | 'tier' | 'variant' | 'retime'>;
