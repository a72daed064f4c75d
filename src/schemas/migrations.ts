import { defaultBodySchemaRegistry } from './registry.js';
import { MigrationError, MigrationFailedError, MissingMigrationError } from './errors.js';
import { bodySchemaUri, parseBodySchemaUri } from './schema-uri.js';

/** A forward step from a body of version N to a body of version N+1. It may mutate its argument (a private copy). */
export type MigrationFunction = (body: Record<string, unknown>) => Record<string, unknown>;

/** Options of registerMigration. */
export interface RegisterMigrationOptions {
  /** Replace a migration already registered for the same step. Without it that is an error. */
  readonly replace?: boolean;
}

const steps = new Map<string, MigrationFunction>();
let builtinsRegistered = false;

/**
 * Registers the single step `name` v`fromVersion` → v`toVersion` (toVersion must be fromVersion + 1:
 * longer jumps are chains of steps, so every intermediate version stays reachable).
 */
export function registerMigration(
  name: string,
  fromVersion: number,
  toVersion: number,
  fn: MigrationFunction,
  options: RegisterMigrationOptions = {},
): void {
  ensureBuiltins();
  register(name, fromVersion, toVersion, fn, options);
}

/**
 * Migrates a body from one version of a schema to a later one, chaining single steps
 * (v1 → v2 → v3). The input is not modified. When the target schema is registered the result is
 * validated against it, so a faulty migration fails here rather than in a store.
 */
export function migrate(body: Record<string, unknown>, fromUri: string, toUri: string): Record<string, unknown> {
  ensureBuiltins();
  const from = parseBodySchemaUri(fromUri, 'fromUri');
  const to = parseBodySchemaUri(toUri, 'toUri');
  if (from.name !== to.name) {
    throw new MigrationError(`cannot migrate across schemas: ${fromUri} -> ${toUri}; a migration changes the version of one schema`);
  }
  if (to.version < from.version) {
    throw new MigrationError(`only forward migrations exist: ${fromUri} -> ${toUri} goes from v${from.version} back to v${to.version}`);
  }
  const requested = `${fromUri} -> ${toUri}`;
  const chain: MigrationFunction[] = [];
  for (let version = from.version; version < to.version; version++) {
    const step = steps.get(stepKey(from.name, version));
    if (step === undefined) throw new MissingMigrationError(from.name, version, version + 1, requested);
    chain.push(step);
  }
  let current = structuredClone(body);
  chain.forEach((step, offset) => {
    const version = from.version + offset;
    try {
      current = step(current);
    } catch (error) {
      throw new MigrationFailedError(
        `migration ${from.name} v${version} -> v${version + 1} failed: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    if (typeof current !== 'object' || current === null || Array.isArray(current)) {
      throw new MigrationFailedError(`migration ${from.name} v${version} -> v${version + 1} returned ${Array.isArray(current) ? 'an array' : String(current)} instead of a body object`);
    }
  });
  const registry = defaultBodySchemaRegistry();
  if (registry.has(toUri)) {
    const result = registry.validate(toUri, current);
    if (!result.valid) {
      throw new MigrationFailedError(
        `migrating ${requested} produced a body that ${toUri} rejects: ${result.errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`,
      );
    }
  }
  return current;
}

/** Whether every step from v`fromVersion` to v`toVersion` of `name` is registered. */
export function hasMigrationPath(name: string, fromVersion: number, toVersion: number): boolean {
  ensureBuiltins();
  for (let version = fromVersion; version < toVersion; version++) {
    if (!steps.has(stepKey(name, version))) return false;
  }
  return fromVersion <= toVersion;
}

function register(name: string, fromVersion: number, toVersion: number, fn: MigrationFunction, options: RegisterMigrationOptions): void {
  // Validates the name and both versions through the URI rules.
  bodySchemaUri(name, fromVersion);
  bodySchemaUri(name, toVersion);
  if (toVersion !== fromVersion + 1) {
    throw new MigrationError(
      `migrations are single steps: ${name} v${fromVersion} -> v${toVersion} is not; register each step (v${fromVersion} -> v${fromVersion + 1}, ...) and migrate() chains them`,
    );
  }
  if (typeof fn !== 'function') throw new MigrationError(`the migration ${name} v${fromVersion} -> v${toVersion} must be a function`);
  const key = stepKey(name, fromVersion);
  if (steps.has(key) && steps.get(key) !== fn && options.replace !== true) {
    throw new MigrationError(`a migration ${name} v${fromVersion} -> v${toVersion} is already registered; pass {replace: true} to replace it`);
  }
  steps.set(key, fn);
}

function stepKey(name: string, fromVersion: number): string {
  return `${name}@${fromVersion}`;
}

/** named-entity v1 → v2: `type` becomes `entity_type`; everything else is kept. */
function namedEntityV1ToV2(body: Record<string, unknown>): Record<string, unknown> {
  const { type, ...rest } = body;
  return { ...rest, entity_type: type };
}

function ensureBuiltins(): void {
  if (builtinsRegistered) return;
  builtinsRegistered = true;
  register('named-entity', 1, 2, namedEntityV1ToV2, {});
}
