import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describeFailure } from '../../src/cli/errors.js';
import { AnnotError } from '../../src/errors/annot-error.js';
import { errorCodesMarkdown } from '../../src/errors/error-docs.js';
import { ERROR_TABLE, isErrorCode, type ErrorCode } from '../../src/errors/error-table.js';
import { httpFailure } from '../../src/server/errors.js';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const REGISTRY_FILE = 'src/errors/error-table.ts';

/** Names annot reads from the environment: ANNOT_ words that are not error codes. */
/** Codes of a command line that cannot be understood (a flag's value included): the CLI exits 2 on them. */
const USAGE_CODES = ['ANNOT_USAGE', 'ANNOT_UNKNOWN_ENCODING'];

const ENVIRONMENT = ['ANNOT_TOKEN', 'ANNOT_REDIS_URL', 'ANNOT_DEBUG', 'ANNOT_CACHE_DIR', 'ANNOT_LOCAL_SPEECH', 'ANNOT_MCP_MAX_MESSAGE', 'ANNOT_REMOTE_CACHE', 'ANNOT_REMOTE_CACHE_MODE'];

/** Where annot's code lives: the library and surfaces, the commands, and the page's client wherever it is kept. */
const SOURCE_DIRS = ['src', 'commands', 'web'].filter((dir) => existsSync(join(ROOT, dir)));

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|js|mjs|cjs)$/.test(entry.name) ? [path] : [];
  });
}

interface Mention {
  code: string;
  where: string;
}

/** Every ANNOT_ word written as a whole string literal ('…', "…" or `…`) in the source, outside the registry. */
function literalCodes(): Mention[] {
  const mentions: Mention[] = [];
  for (const file of SOURCE_DIRS.flatMap(sourceFiles)) {
    if (file === REGISTRY_FILE) continue;
    readFileSync(join(ROOT, file), 'utf8').split('\n').forEach((line, index) => {
      for (const match of line.matchAll(/(['"`])(ANNOT_[A-Z0-9_]+)\1/g)) mentions.push({ code: match[2], where: `${file}:${index + 1}` });
    });
  }
  return mentions;
}

/** Codes put together at run time (`ANNOT_X_${…}`), which no reader can check against the registry. */
function builtCodes(): string[] {
  return SOURCE_DIRS.flatMap(sourceFiles).flatMap((file) =>
    readFileSync(join(ROOT, file), 'utf8')
      .split('\n')
      .flatMap((line, index) => (/`ANNOT_[A-Z0-9_]*\$\{/.test(line) ? [`${file}:${index + 1}`] : [])),
  );
}

/**
 * A value every constructor accepts: any property is again this value, calling it gives it,
 * iterating it gives itself once, and as text or number it is "1". So each error class can be built
 * whatever its constructor reads from its arguments.
 */
const anything: unknown = new Proxy(function () {}, {
  get: (_target, property) => {
    if (property === Symbol.toPrimitive) return () => '1';
    if (property === Symbol.iterator) return function* () {
      yield anything;
    };
    if (property === 'then') return undefined;
    return anything;
  },
  apply: () => anything,
  construct: () => anything as object,
});

/**
 * The HTTP status of every code, written out here rather than read from the registry, so the
 * registry is checked against a second statement of the API's promise: moving a code to another
 * status (or adding one) needs a change here too, on purpose. A new code goes into the group of
 * the status its row gives.
 */
const PROMISED_HTTP_STATUS: Record<number, string[]> = {
  400: ['ANNOT_USAGE', 'ANNOT_MALFORMED_BODY', 'ANNOT_INVALID_QUERY', 'ANNOT_BAD_REQUEST', 'ANNOT_INVALID_INPUT', 'ANNOT_INVALID_JSON_SCHEMA', 'ANNOT_MIGRATION', 'ANNOT_INVALID_CURSOR', 'ANNOT_CLOCK_OUT_OF_RANGE', 'ANNOT_LOSSY_TIME', 'ANNOT_INVALID_TIME', 'ANNOT_UNKNOWN_RELATION', 'ANNOT_UNKNOWN_FORMAT', 'ANNOT_UNKNOWN_ENCODING', 'ANNOT_METRIC_INPUT', 'ANNOT_PROCESSOR_PARAMS', 'ANNOT_SCENE_INVALID', 'ANNOT_UNKNOWN_QUALITY_TIER', 'ANNOT_UNKNOWN_PROVIDER', 'ANNOT_OUTPUT_CLASH', 'ANNOT_CONVERT_OUTPUT_CLASH', 'ANNOT_LOCAL_ASSET_UNREACHABLE', 'ANNOT_FAL_KEY_MISSING'],
  401: ['ANNOT_UNAUTHORIZED', 'ANNOT_FAL_UNAUTHORIZED'],
  404: ['ANNOT_ROUTE_NOT_FOUND', 'ANNOT_SCHEMA_NOT_FOUND', 'ANNOT_NOT_FOUND', 'ANNOT_ANNOTATION_NOT_FOUND', 'ANNOT_TIER_NOT_FOUND', 'ANNOT_PROJECT_NOT_FOUND', 'ANNOT_UNKNOWN_PROCESSOR', 'ANNOT_JOB_NOT_FOUND', 'ANNOT_UNIT_NOT_FOUND', 'ANNOT_UNKNOWN_MODEL', 'ANNOT_UNKNOWN_MODEL_CATEGORY', 'ANNOT_MANIFEST_NOT_FOUND', 'ANNOT_NO_AUDIO'],
  409: ['ANNOT_BODY_SCHEMA_CONFLICT', 'ANNOT_DUPLICATE_ID', 'ANNOT_TIER_IN_USE', 'ANNOT_TIER_OVERLAP', 'ANNOT_TIER_CONSTRAINT', 'ANNOT_FILE_CHANGED_ON_DISK', 'ANNOT_FILE_IN_USE', 'ANNOT_ORPHAN_JOURNAL', 'ANNOT_MANIFEST_OTHER_SCENE'],
  412: ['ANNOT_PRECONDITION_FAILED'],
  413: ['ANNOT_BODY_TOO_LARGE', 'ANNOT_INPUT_TOO_LARGE'],
  415: ['ANNOT_UNSUPPORTED_MEDIA_TYPE'],
  416: ['ANNOT_RANGE_NOT_SATISFIABLE'],
  422: ['ANNOT_INVALID_BODY', 'ANNOT_RETIME_BEFORE_ZERO', 'ANNOT_CONVERT_BATCH_FAILED', 'ANNOT_INVALID_WIRE', 'ANNOT_INVALID_ANNOTATION', 'ANNOT_INVALID_TIER', 'ANNOT_INVALID_SCHEMA_URI', 'ANNOT_UNKNOWN_BODY_SCHEMA', 'ANNOT_BODY_VALIDATION', 'ANNOT_NON_STRING_BODY_KEY', 'ANNOT_NOT_JSON', 'ANNOT_MISSING_MIGRATION', 'ANNOT_MIGRATION_FAILED', 'ANNOT_UNKNOWN_TIER', 'ANNOT_KEY_MISMATCH', 'ANNOT_STORE_FORMAT', 'ANNOT_PROJECT_RATE_MISMATCH', 'ANNOT_STRICT_FINDINGS', 'ANNOT_FORMAT_PARSE', 'ANNOT_TEXT_ENCODING', 'ANNOT_INPUT_TOO_DEEP', 'ANNOT_UNREPRESENTABLE', 'ANNOT_CUES_OUT_OF_TIME_ORDER', 'ANNOT_INSUFFICIENT_DATA', 'ANNOT_SCENE_FINDINGS', 'ANNOT_MANIFEST_INVALID', 'ANNOT_MANIFEST_LAYOUT_MISSING', 'ANNOT_FAL_BAD_REQUEST', 'ANNOT_SYNC_UNCERTAIN', 'ANNOT_SYNC_NO_CUES'],
  428: ['ANNOT_PRECONDITION_REQUIRED'],
  429: ['ANNOT_FAL_RATE_LIMITED'],
  499: ['ANNOT_RENDER_ABORTED'],
  500: ['ANNOT_INTERNAL', 'ANNOT_SYSTEM_ENOENT', 'ANNOT_SYSTEM_EISDIR', 'ANNOT_SYSTEM_ENOTDIR', 'ANNOT_SYSTEM_ERROR', 'ANNOT_STORE_DATABASE_NOT_FOUND', 'ANNOT_STORE_ROLE_NOT_FOUND', 'ANNOT_STORE_AUTH_FAILED', 'ANNOT_STORE_PERMISSION_DENIED', 'ANNOT_SAVE_FAILED', 'ANNOT_PERMISSION_DENIED', 'ANNOT_READ_ONLY_FILE_SYSTEM', 'ANNOT_WRITE_FAILED', 'ANNOT_PROCESSOR_FAILED', 'ANNOT_SCENE_RENDER_FAILED', 'ANNOT_LOCAL_MEDIA_FAILED', 'ANNOT_MEDIA_UNREADABLE'],
  502: ['ANNOT_RENDER_NO_ASSET', 'ANNOT_FAL_SERVER_ERROR', 'ANNOT_FAL_FOREIGN_URL', 'ANNOT_RENDER_WORKER_FAILED', 'ANNOT_RENDER_MEDIA_UNAVAILABLE'],
  503: ['ANNOT_SHUTTING_DOWN', 'ANNOT_STORE_UNREACHABLE', 'ANNOT_QUEUE_UNAVAILABLE', 'ANNOT_REMOTE_CACHE_UNAVAILABLE'],
  504: ['ANNOT_FAL_TIMEOUT'],
  507: ['ANNOT_NO_SPACE', 'ANNOT_FILE_TOO_LARGE'],
};

/** The exported bases that give no code of their own: every other class must have one. */
const ABSTRACT = new Set(['AnnotError', 'FalError', 'FileAccessError']);

type ErrorClass = new (...args: unknown[]) => AnnotError;

/** The modules of every package export (package.json "exports"), as their TypeScript sources. */
function packageEntryPoints(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { exports: Record<string, string | { import?: string }> };
  return Object.values(pkg.exports)
    .map((target) => (typeof target === 'string' ? target : target.import))
    .filter((target): target is string => typeof target === 'string' && target.startsWith('./dist/src/'))
    .map((target) => target.replace('./dist/', '').replace(/\.js$/, '.ts'));
}

async function exportedErrorClasses(): Promise<Array<{ name: string; from: string; code: string }>> {
  const found = new Map<ErrorClass, { name: string; from: string; code: string }>();
  for (const entry of packageEntryPoints()) {
    const module = (await import(join(ROOT, entry))) as Record<string, unknown>;
    for (const [name, value] of Object.entries(module)) {
      if (typeof value !== 'function' || !(value.prototype instanceof AnnotError) || found.has(value as ErrorClass)) continue;
      if (ABSTRACT.has(name)) continue;
      const instance = Reflect.construct(value, [anything, anything, anything, anything, anything]) as AnnotError;
      found.set(value as ErrorClass, { name, from: entry, code: instance.code });
    }
  }
  return [...found.values()];
}

describe('the error registry', () => {
  it('has well-formed rows: an ANNOT_ name, an HTTP error status, exit 1 or 2, a one-line meaning', () => {
    for (const [code, row] of Object.entries(ERROR_TABLE)) {
      expect(code).toMatch(/^ANNOT_[A-Z][A-Z0-9_]*[A-Z0-9]$/);
      expect([code, row.http >= 400 && row.http <= 599]).toEqual([code, true]);
      expect([code, row.exit]).toEqual([code, USAGE_CODES.includes(code) ? 2 : 1]);
      expect([code, /^[a-z].{10,140}$/.test(row.meaning) && !row.meaning.includes('\n')]).toEqual([code, true]);
    }
    expect(ENVIRONMENT.filter((name) => isErrorCode(name))).toEqual([]);
  });

  it('gives each code the HTTP status the API promises, as written out in this test', () => {
    const promised = Object.entries(PROMISED_HTTP_STATUS).flatMap(([status, codes]) => codes.map((code) => [code, Number(status)] as const));
    expect(new Set(promised.map(([code]) => code)).size).toBe(promised.length); // each code promised once
    const actual = Object.entries(ERROR_TABLE).map(([code, row]) => `${code} ${row.http}`).sort();
    expect(actual).toEqual(promised.map(([code, status]) => `${code} ${status}`).sort());
  });

  it('finds every code written in src/ and commands/ among its keys', () => {
    const mentions = literalCodes();
    expect(mentions.length).toBeGreaterThan(80);
    const unknown = mentions.filter(({ code }) => !isErrorCode(code) && !ENVIRONMENT.includes(code));
    expect(unknown.map(({ code, where }) => `${where}: ${code}`)).toEqual([]);
    expect(builtCodes()).toEqual([]);
  });

  it('knows the environment variables it sets apart from codes, each one read somewhere', () => {
    const text = SOURCE_DIRS.flatMap(sourceFiles).map((file) => readFileSync(join(ROOT, file), 'utf8')).join('\n');
    for (const name of ENVIRONMENT) expect([name, new RegExp(`process\\.env\\.${name}\\b|env: '${name}'`).test(text)]).toEqual([name, true]);
  });

  it('finds the code of every error class the package exports among its keys', async () => {
    const classes = await exportedErrorClasses();
    expect(classes.length).toBeGreaterThan(45);
    expect(classes.filter(({ code }) => !isErrorCode(code)).map(({ name, from, code }) => `${from}: ${name} ${code}`)).toEqual([]);
  });

  it('has no code that nothing gives: each key is written in the source or is the code of an exported class', async () => {
    const used = new Set<string>([...literalCodes().map(({ code }) => code), ...(await exportedErrorClasses()).map(({ code }) => code)]);
    expect(Object.keys(ERROR_TABLE).filter((code) => !used.has(code))).toEqual([]);
  });

  it('is the page docs/errors.md, word for word (npm run errors-doc writes it)', () => {
    const page = readFileSync(join(ROOT, 'docs', 'errors.md'), 'utf8');
    expect(page).toBe(errorCodesMarkdown());
    for (const code of Object.keys(ERROR_TABLE)) expect(page).toContain(`| \`${code}\` |`);
  });
});

describe('the surfaces read the registry', () => {
  it('answers every exported error class with its row: HTTP status and CLI exit status', async () => {
    for (const { name } of await exportedErrorClasses()) {
      const modules = await Promise.all(packageEntryPoints().map((entry) => import(join(ROOT, entry)) as Promise<Record<string, ErrorClass>>));
      const Class = modules.find((module) => module[name])![name];
      const error = Reflect.construct(Class, [anything, anything, anything, anything, anything]) as AnnotError;
      const row = ERROR_TABLE[error.code];
      expect([name, httpFailure(error).status, describeFailure(error).exitCode]).toEqual([name, row.http, row.exit]);
      expect(httpFailure(error).body.error.code).toBe(error.code);
    }
  });

  it('gives the registry\'s status where the class family would say otherwise', async () => {
    const { UnknownBodySchemaError } = await import('../../src/schemas/errors.js');
    const { QueueUnavailableError } = await import('../../src/processors/errors.js');
    const { PreconditionRequiredError } = await import('../../src/service/errors.js');
    const { UnknownModelError, UnknownModelOverrideError } = await import('../../src/render/errors.js');
    // A NotFoundError by class, but an unknown schema named in a body is a 422.
    expect(httpFailure(new UnknownBodySchemaError('annot://schema/nope/v1')).status).toBe(422);
    expect(httpFailure(new QueueUnavailableError('redis is down')).status).toBe(503);
    expect(httpFailure(new PreconditionRequiredError('x')).status).toBe(428);
    // One code, one status, whichever class gives it.
    expect(httpFailure(new UnknownModelError('x')).status).toBe(404);
    expect(httpFailure(new UnknownModelOverrideError('--image-model', 'x', [])).status).toBe(404);
  });

  it('reports a usage error as ANNOT_USAGE with exit 2, and an errno it does not word as ANNOT_SYSTEM_ERROR', () => {
    expect(describeFailure(Object.assign(new Error('Missing 1 required arg'), { parse: {} }))).toMatchObject({ code: 'ANNOT_USAGE', exitCode: 2 });
    const busy = Object.assign(new Error('EBUSY: resource busy or locked'), { code: 'EBUSY' });
    expect(describeFailure(busy)).toEqual({ code: 'ANNOT_SYSTEM_ERROR', exitCode: 1, message: 'EBUSY: resource busy or locked' });
    const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC', path: 'out.vtt' });
    expect(describeFailure(full)).toEqual({ code: 'ANNOT_NO_SPACE', exitCode: 1, message: 'no space left on the device writing out.vtt' });
  });

  it('maps a code only JavaScript could throw by its family, never to a status the registry lacks', () => {
    const stray = new (class extends AnnotError {
      readonly code = 'ANNOT_FROM_A_PLUGIN' as ErrorCode;
    })('x');
    expect(httpFailure(stray).status).toBe(500);
    expect(describeFailure(stray).exitCode).toBe(1);
  });
});
