import { AnnotError, InvalidInputError, NotFoundError } from '../errors/annot-error.js';
import type { ErrorCode } from '../errors/error-table.js';
import type { ValidationIssue } from './validation-issue.js';

/** A body_schema_uri that is not of the form `annot://schema/<name>/v<N>`. */
export class InvalidBodySchemaUriError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_SCHEMA_URI';

  constructor(
    /** The value given as a body schema URI. */
    readonly uri: unknown,
    /** The field that held it. */
    readonly path = 'body_schema_uri',
  ) {
    super(
      `${path}: expected a body schema URI of the form annot://schema/<name>/v<N> (name in lower-case kebab-case, ` +
        `N a positive integer without leading zeros), got ${typeof uri === 'string' ? JSON.stringify(uri) : typeof uri}`,
    );
  }
}

/** No schema is registered under this URI. */
export class UnknownBodySchemaError extends NotFoundError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_UNKNOWN_BODY_SCHEMA';

  constructor(
    /** The body schema URI no schema is registered under. */
    readonly uri: string,
  ) {
    super(`no body schema is registered for ${uri}; register it with registerBodySchema(uri, schema) or list the known ones with listBodySchemas()`);
  }
}

/** A different schema is already registered under this URI (identical re-registration is a no-op). */
export class BodySchemaConflictError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_BODY_SCHEMA_CONFLICT';

  constructor(
    /** The body schema URI that is already registered with another schema. */
    readonly uri: string,
  ) {
    super(
      `a different schema is already registered for ${uri}; a schema URI names one schema forever. ` +
        'Publish the change as a new version (v<N+1>) with a migration, or pass {replace: true} if you really mean to replace it.',
    );
  }
}

/** ajv refused the JSON Schema itself (not a body). */
export class InvalidJsonSchemaError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_INVALID_JSON_SCHEMA';

  constructor(
    /** The body schema URI the refused JSON Schema was to be registered under. */
    readonly uri: string,
    detail: string,
    options?: { cause?: unknown },
  ) {
    super(`the JSON Schema given for ${uri} is not a valid draft 2020-12 schema: ${detail}`, options);
  }
}

/** A body does not satisfy its schema. `issues` holds every failure, not just the first. */
export class BodyValidationError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_BODY_VALIDATION';

  constructor(
    /** The body schema URI the body was checked against. */
    readonly uri: string,
    /** Every way the body fails its schema, each with its JSON path. */
    readonly issues: readonly ValidationIssue[],
  ) {
    super(`body failed validation against ${uri}: ${issues.map((i) => `${i.path}: ${i.message}`).join('; ')}`);
  }
}

/** A migration request that cannot mean anything (across schemas, backwards, malformed step). */
export class MigrationError extends InvalidInputError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code: ErrorCode = 'ANNOT_MIGRATION';
}

/** A step of a migration chain has no registered function. */
export class MissingMigrationError extends MigrationError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_MISSING_MIGRATION';

  constructor(
    /** The name of the body schema. */
    readonly schemaName: string,
    /** The version the body is at. */
    readonly fromVersion: number,
    /** The version it was to be migrated to. */
    readonly toVersion: number,
    /** The migration step no migration is registered for. */
    readonly requested: string,
  ) {
    super(
      `no migration registered for ${schemaName} v${fromVersion} -> v${toVersion} (needed for ${requested}); ` +
        `register one with registerMigration('${schemaName}', ${fromVersion}, ${toVersion}, fn)`,
    );
  }
}

/** A registered migration function threw, or produced a body its target schema rejects. */
export class MigrationFailedError extends MigrationError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_MIGRATION_FAILED';
}
