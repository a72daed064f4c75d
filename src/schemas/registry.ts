import type { ValidateFunction } from 'ajv/dist/2020.js';
import { canonicalJson } from '../json/canonical-json.js';
import { createAjv, issuesFromAjv } from './ajv.js';
import {
  BodySchemaConflictError,
  BodyValidationError,
  InvalidJsonSchemaError,
  UnknownBodySchemaError,
} from './errors.js';
import { readPackageSchema } from './package-schemas.js';
import { precompiledValidator } from './precompiled.js';
import { parseBodySchemaUri, type BodySchemaId } from './schema-uri.js';
import type { ValidationIssue } from './validation-issue.js';

/** A JSON Schema, as a plain object. */
export type JsonSchema = Readonly<Record<string, unknown>>;

/** What a body validation found. */
export interface BodyValidationResult {
  /** Whether the body satisfies its schema. */
  readonly valid: boolean;
  /** The schema URI it was checked against. */
  readonly uri: string;
  /** Every failure, with field paths rooted at `body`. Empty when valid. */
  readonly errors: readonly ValidationIssue[];
}

/** Options of registerBodySchema. */
export interface RegisterOptions {
  /** Replace a different schema already registered under the URI. Without it that is an error. */
  readonly replace?: boolean;
}

interface Entry {
  readonly id: BodySchemaId;
  readonly schema: JsonSchema;
  readonly canonical: string;
  validate?: ValidateFunction;
}

/** Entry of schemas/index.json (and of the index exportJsonSchemas writes). */
export interface SchemaIndexEntry {
  readonly name: string;
  readonly version: number;
  readonly path: string;
}

/**
 * Body schemas by URI. Schemas are compiled by ajv on their first validation and the compiled
 * function is kept, so a schema is compiled once however many bodies it checks; the built-in
 * schemas come compiled by the build (precompiled.ts) unless replaced. The default
 * registry loads the built-in schemas from the package's schemas/ folder on first use.
 */
export class BodySchemaRegistry {
  private readonly entries = new Map<string, Entry>();
  /**
   * Built-in schemas not read yet, by URI: the file each is read from (registerFromPackage). A
   * command that validates WebVTT cues reads one schema file, not all twenty-odd of them.
   */
  private readonly unread = new Map<string, string>();
  /** Made on first need: the built-in schemas come compiled, and loading ajv is most of a first validation's cost. */
  private ajvInstance: ReturnType<typeof createAjv> | undefined;

  private get ajv(): ReturnType<typeof createAjv> {
    this.ajvInstance ??= createAjv();
    return this.ajvInstance;
  }

  /** Registers the package's schema file `path` (relative to schemas/) under `uri`, read when first needed. */
  registerFromPackage(uri: string, path: string): void {
    parseBodySchemaUri(uri, 'schema URI');
    if (this.entries.has(uri)) this.register(uri, readPackageSchema(path) as object);
    else this.unread.set(uri, path);
  }

  /**
   * Registers a JSON Schema under a body schema URI (BodySchemaConflictError when another is registered there, unless `replace`).
   */
  register(uri: string, schema: object, options: RegisterOptions = {}): void {
    this.read(uri);
    const id = parseBodySchemaUri(uri, 'schema URI');
    if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) {
      throw new InvalidJsonSchemaError(uri, 'expected a JSON Schema object');
    }
    const copy = JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
    if (copy.$id !== undefined && copy.$id !== uri) {
      throw new InvalidJsonSchemaError(uri, `its $id ${JSON.stringify(copy.$id)} differs from the URI it is registered under; drop $id or make them equal`);
    }
    const canonical = canonicalJson(copy, 'schema');
    const existing = this.entries.get(uri);
    if (existing !== undefined) {
      if (existing.canonical === canonical) return;
      if (options.replace !== true) throw new BodySchemaConflictError(uri);
    }
    // A schema the build compiled was checked by ajv then.
    const compiled = precompiledValidator(uri, canonical) !== null;
    if (!compiled && !this.ajv.validateSchema(copy)) {
      throw new InvalidJsonSchemaError(uri, this.ajv.errorsText(this.ajv.errors));
    }
    if (existing !== undefined) this.ajvInstance?.removeSchema(uri);
    this.entries.set(uri, { id, schema: deepFreeze(copy), canonical });
  }

  /** Whether a schema is registered under the URI. */
  has(uri: string): boolean {
    return this.entries.has(uri) || this.unread.has(uri);
  }

  /** The JSON Schema registered under `uri` (frozen). */
  get(uri: string): JsonSchema {
    return this.entry(uri).schema;
  }

  /** Registered URIs, sorted. */
  list(): string[] {
    return [...this.entries.keys(), ...this.unread.keys()].sort();
  }

  /** Highest registered version of a schema name, or null. */
  latestVersion(name: string): number | null {
    let latest: number | null = null;
    const ids = [...[...this.entries.values()].map((entry) => entry.id), ...[...this.unread.keys()].map((uri) => parseBodySchemaUri(uri, 'schema URI'))];
    for (const id of ids) {
      if (id.name === name && (latest === null || id.version > latest)) latest = id.version;
    }
    return latest;
  }

  /** Checks a body against the schema registered under the URI (UnknownBodySchemaError when none is). */
  validate(uri: string, body: unknown): BodyValidationResult {
    const entry = this.entry(uri);
    if (entry.validate === undefined) {
      try {
        entry.validate = precompiledValidator(uri, entry.canonical) ?? this.ajv.compile(entry.schema as Record<string, unknown>);
      } catch (error) {
        throw new InvalidJsonSchemaError(uri, error instanceof Error ? error.message : String(error), { cause: error });
      }
    }
    const valid = entry.validate(body);
    return { valid, uri, errors: valid ? [] : issuesFromAjv(entry.validate.errors, 'body') };
  }

  /** Checks a body and throws BodyValidationError listing every failure. */
  assertValid(uri: string, body: unknown): void {
    const result = this.validate(uri, body);
    if (!result.valid) throw new BodyValidationError(uri, result.errors);
  }

  /** Reads and registers the built-in schema `uri` when it is registered but not read yet. */
  private read(uri: string): void {
    const path = this.unread.get(uri);
    if (path === undefined) return;
    this.unread.delete(uri);
    this.register(uri, readPackageSchema(path) as object);
  }

  private entry(uri: string): Entry {
    this.read(uri);
    const entry = this.entries.get(uri);
    if (entry === undefined) throw new UnknownBodySchemaError(uri);
    return entry;
  }
}

let defaultRegistry: BodySchemaRegistry | undefined;

/** The process-wide registry, holding the built-ins (read from schemas/ on first use). */
export function defaultBodySchemaRegistry(): BodySchemaRegistry {
  if (defaultRegistry === undefined) {
    const registry = new BodySchemaRegistry();
    const index = readPackageSchema('index.json') as Record<string, SchemaIndexEntry>;
    for (const [uri, entry] of Object.entries(index)) registry.registerFromPackage(uri, entry.path);
    defaultRegistry = registry;
  }
  return defaultRegistry;
}

/** Registers a JSON Schema in the default registry (see BodySchemaRegistry.register). */
export function registerBodySchema(uri: string, schema: object, options?: RegisterOptions): void {
  defaultBodySchemaRegistry().register(uri, schema, options);
}

/** The schema registered under the URI in the default registry (UnknownBodySchemaError when none is). */
export function getBodySchema(uri: string): JsonSchema {
  return defaultBodySchemaRegistry().get(uri);
}

/** Whether the default registry has a schema under the URI. */
export function hasBodySchema(uri: string): boolean {
  return defaultBodySchemaRegistry().has(uri);
}

/** Every URI the default registry has a schema under. */
export function listBodySchemas(): string[] {
  return defaultBodySchemaRegistry().list();
}

/** Checks a body against the default registry (see BodySchemaRegistry.validate). */
export function validateBody(uri: string, body: unknown): BodyValidationResult {
  return defaultBodySchemaRegistry().validate(uri, body);
}

/** Throws BodyValidationError (every failure listed) when the body does not satisfy its schema. */
export function assertValidBody(uri: string, body: unknown): void {
  defaultBodySchemaRegistry().assertValid(uri, body);
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const item of Object.values(value)) deepFreeze(item);
    Object.freeze(value);
  }
  return value;
}
