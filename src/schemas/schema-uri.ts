import { InvalidBodySchemaUriError } from './errors.js';

/**
 * `annot://schema/<name>/v<N>`: name in lower-case kebab-case, N a positive integer without
 * leading zeros, so that one version has exactly one spelling (v1 and v01 would otherwise be two
 * registry keys for one schema).
 */
const URI = /^annot:\/\/schema\/([a-z0-9]+(?:-[a-z0-9]+)*)\/v([1-9][0-9]*)$/;

export const BODY_SCHEMA_URI_PATTERN = URI.source;

export interface BodySchemaId {
  readonly name: string;
  readonly version: number;
}

export function isBodySchemaUri(uri: unknown): uri is string {
  return typeof uri === 'string' && URI.test(uri) && Number.isSafeInteger(Number(URI.exec(uri)![2]));
}

export function parseBodySchemaUri(uri: unknown, path = 'body_schema_uri'): BodySchemaId {
  if (!isBodySchemaUri(uri)) throw new InvalidBodySchemaUriError(uri, path);
  const match = URI.exec(uri)!;
  return { name: match[1], version: Number(match[2]) };
}

export function bodySchemaUri(name: string, version: number): string {
  const uri = `annot://schema/${name}/v${version}`;
  if (!isBodySchemaUri(uri)) throw new InvalidBodySchemaUriError(uri, 'schema name/version');
  return uri;
}
