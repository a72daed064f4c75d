import { InvalidBodySchemaUriError } from './errors.js';

/**
 * `annot://schema/<name>/v<N>`: name in lower-case kebab-case, N a positive integer without
 * leading zeros, so that one version has exactly one spelling (v1 and v01 would otherwise be two
 * registry keys for one schema).
 */
const URI = /^annot:\/\/schema\/([a-z0-9]+(?:-[a-z0-9]+)*)\/v([1-9][0-9]*)$/;

export const BODY_SCHEMA_URI_PATTERN = URI.source;

/** A body schema URI taken apart. */
export interface BodySchemaId {
  /** The schema's name (`word`). */
  readonly name: string;
  /** Its version (`1`). */
  readonly version: number;
}

/** Whether a value is a body schema URI, `annot://schema/<name>/v<version>`. */
export function isBodySchemaUri(uri: unknown): uri is string {
  return typeof uri === 'string' && URI.test(uri) && Number.isSafeInteger(Number(URI.exec(uri)![2]));
}

/** A body schema URI taken apart (InvalidBodySchemaUriError when it is not one). */
export function parseBodySchemaUri(uri: unknown, path = 'body_schema_uri'): BodySchemaId {
  if (!isBodySchemaUri(uri)) throw new InvalidBodySchemaUriError(uri, path);
  const match = URI.exec(uri)!;
  return { name: match[1], version: Number(match[2]) };
}

/** The body schema URI of a name and version. */
export function bodySchemaUri(name: string, version: number): string {
  const uri = `annot://schema/${name}/v${version}`;
  if (!isBodySchemaUri(uri)) throw new InvalidBodySchemaUriError(uri, 'schema name/version');
  return uri;
}
