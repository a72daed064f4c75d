import type { ValidationIssue } from '../schemas/validation-issue.js';
import { ProcessorParamsError } from './errors.js';
import { getProcessor } from './registry.js';

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/**
 * Reads `--param key=value` pairs into the params object of a processor, typed by its params
 * schema: a number or integer param becomes a number, a boolean one `true`/`false`, a string one
 * stays text, and one that takes a string or a number (like `bucket_seconds`) stays text so it
 * is read exactly. Every problem (no `=`, a key given twice, an unknown key, a value that is not
 * of its type) is reported in one ProcessorParamsError; value ranges are the schema's business
 * and are checked when the run or the job is prepared.
 */
export function parseParamArgs(processorName: string, pairs: readonly string[]): Record<string, unknown> {
  const processor = getProcessor(processorName);
  const properties = (processor.paramsSchema.properties ?? {}) as Record<string, { type?: string | string[] }>;
  const known = Object.keys(properties);
  const params: Record<string, unknown> = {};
  const issues: ValidationIssue[] = [];
  for (const pair of pairs) {
    const equals = pair.indexOf('=');
    if (equals <= 0) {
      issues.push({ path: JSON.stringify(pair), message: 'expected key=value (for example threshold=0.4)', keyword: 'format' });
      continue;
    }
    const key = pair.slice(0, equals).trim();
    const text = pair.slice(equals + 1);
    if (!(key in properties)) {
      issues.push({ path: `params.${key}`, message: `unknown param (known: ${known.length > 0 ? known.join(', ') : 'none'})`, keyword: 'additionalProperties' });
      continue;
    }
    if (key in params) {
      issues.push({ path: `params.${key}`, message: 'given twice; give each param once', keyword: 'semantic' });
      continue;
    }
    const value = typedValue(text, properties[key].type);
    if (value.issue !== undefined) issues.push({ path: `params.${key}`, message: value.issue, keyword: 'type' });
    else params[key] = value.value;
  }
  if (issues.length > 0) throw new ProcessorParamsError(processorName, issues);
  return params;
}

function typedValue(text: string, type: string | string[] | undefined): { value?: unknown; issue?: string } {
  const types = type === undefined ? ['string'] : Array.isArray(type) ? type : [type];
  if (types.includes('string')) return { value: text };
  if (types.includes('integer') || types.includes('number')) {
    const number = NUMBER.test(text.trim()) ? Number(text) : Number.NaN;
    if (!Number.isFinite(number)) return { issue: `expected a number, got ${JSON.stringify(text)}` };
    if (!types.includes('number') && !Number.isInteger(number)) return { issue: `expected a whole number, got ${JSON.stringify(text)}` };
    return { value: number };
  }
  if (types.includes('boolean')) {
    if (text === 'true') return { value: true };
    if (text === 'false') return { value: false };
    return { issue: `expected true or false, got ${JSON.stringify(text)}` };
  }
  return { issue: `cannot be given as key=value (its type is ${types.join(' or ')})` };
}
