import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject } from 'ajv/dist/2020.js';
import type formatsModule from 'ajv-formats';
import type { ValidationIssue } from './validation-issue.js';

// ajv takes a large share of CLI start-up to load, and most commands never validate anything:
// it is required (both packages are CommonJS) the first time a validator is built.
const require = createRequire(import.meta.url);

/**
 * One configuration for every ajv instance in annot: draft 2020-12, all errors (a validator
 * reports every failure, not the first), verbose errors (so a message can quote the offending
 * value and the schema's own description of what it expected), standard formats available.
 */
export function createAjv(): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof formatsModule;
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strictSchema: true,
    strictNumbers: true,
    strictTypes: false,
    strictTuples: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  // ajv-formats' module.exports also carries itself as `.default` (what TypeScript's typing sees).
  addFormats.default(ajv);
  return ajv;
}

/** ajv's errors as readable issues: paths like `body.items[0].text`, messages saying what was expected. */
export function issuesFromAjv(errors: readonly ErrorObject[] | null | undefined, root: string): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const seen = new Set<string>();
  for (const error of errors ?? []) {
    // `if` only reports that a `then` branch failed; the branch's own errors say what.
    if (error.keyword === 'if') continue;
    const issue = issueFrom(error, root);
    // Several keywords can fail on one value (type and minimum); one message per field reads better.
    if (seen.has(issue.path)) continue;
    seen.add(issue.path);
    issues.push(issue);
  }
  return issues;
}

function issueFrom(error: ErrorObject, root: string): ValidationIssue {
  const base = pointerToPath(error.instancePath, root);
  const params = error.params as Record<string, unknown>;
  const described = (error.parentSchema as { description?: unknown } | undefined)?.description;
  // A description phrased to complete "expected ..." (`a positive integer rate`) says it better
  // than the keyword; other descriptions are documentation, and the keyword message is used.
  const expected = typeof described === 'string' && /^(a|an|one of) |^"/.test(described) && described.length < 120 ? described : undefined;
  switch (error.keyword) {
    case 'required':
      return { path: joinPath(base, String(params.missingProperty)), message: 'missing (required)', keyword: 'required' };
    case 'additionalProperties': {
      const allowed = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
      return {
        path: joinPath(base, String(params.additionalProperty)),
        message: allowed.length > 0 ? `unexpected key (allowed: ${allowed.join(', ')})` : 'unexpected key',
        keyword: 'additionalProperties',
      };
    }
    default: {
      const got = `got ${describeValue(error.data)}`;
      if (expected !== undefined) return { path: base, message: `expected ${expected}, ${got}`, keyword: error.keyword };
      return { path: base, message: `${plainMessage(error)}, ${got}`, keyword: error.keyword };
    }
  }
}

function plainMessage(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `expected ${String(params.type).replace(/,/g, ' or ')}`;
    case 'enum':
      return `expected one of ${(params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'const':
      return `expected ${JSON.stringify(params.allowedValue)}`;
    default:
      return error.message ?? `fails ${error.keyword}`;
  }
}

/** `/reference/interval/start/r` → `reference.interval.start.r`; numeric segments become `[i]`. */
export function pointerToPath(pointer: string, root: string): string {
  if (pointer === '') return root;
  let path = root;
  for (const raw of pointer.slice(1).split('/')) {
    path = joinPath(path, raw.replace(/~1/g, '/').replace(/~0/g, '~'));
  }
  return path;
}

export function joinPath(base: string, key: string): string {
  if (/^(0|[1-9][0-9]*)$/.test(key)) return `${base}[${key}]`;
  if (/^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key)) return base === '' ? key : `${base}.${key}`;
  return `${base}[${JSON.stringify(key)}]`;
}

export function describeValue(value: unknown): string {
  if (value === null) return 'null';
  if (value === undefined) return 'nothing';
  if (typeof value === 'string') {
    const shown = value.length > 40 ? `${value.slice(0, 40)}…` : value;
    return `the string ${JSON.stringify(shown)}`;
  }
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}
