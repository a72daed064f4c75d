import { listAdapters } from '../adapters/registry.js';

/** The registered formats in their wire form (what `list-formats --json` and `GET /formats` return). */
export function listFormats(): Array<{ name: string; extensions: string[]; media_types: string[]; body_schemas: string[]; description: string }> {
  return listAdapters().map((adapter) => ({
    name: adapter.name,
    extensions: [...adapter.extensions],
    media_types: [...adapter.mediaTypes],
    body_schemas: [...adapter.bodySchemas],
    description: adapter.description,
  }));
}
