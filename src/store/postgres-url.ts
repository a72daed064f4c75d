import { InvalidInputError } from '../errors/annot-error.js';

/** What a `postgres://` store URL names, taken apart once for the driver, for messages and for redaction. */
export interface StoreUrl {
  /** What pg connects with: the URL without our own parameters (`project`, `connect_timeout`). */
  readonly connectionString: string;
  /** The project (`?project=`). */
  readonly project: string;
  /** Where the store lives for messages: `postgres://host:port/database`, never a user or a password. */
  readonly where: string;
  /** `host:port` as a connection refusal names it. */
  readonly address: string;
  /** The database's name. */
  readonly database: string;
  /** The role the URL logs in as (pg's default, the OS user, when it names none). */
  readonly user: string | null;
  /** How long connecting may take before it is given up, in milliseconds. */
  readonly connectTimeoutMs: number;
}

/** libpq has no default connect timeout (it waits for the OS); a store that cannot be reached in 10 s is reported. */
export const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Splits a store URL into what pg connects with and the project: `?project=` is ours, so it is
 * taken out before pg sees the URL, and so is `?connect_timeout=` (seconds, as libpq spells it),
 * which pg would otherwise ignore. A project named both in the URL and in options must agree.
 * Every message quotes the URL redacted: a password never reaches an error.
 */
export function parseStoreUrl(url: string, optionProject?: string): StoreUrl {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidInputError(`store URL ${JSON.stringify(redactStoreUrl(url))} is not a URL; expected postgres://user@host:port/database?project=name`);
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new InvalidInputError(`store URL ${JSON.stringify(redactStoreUrl(url))}: expected a postgres:// or postgresql:// URL, got ${parsed.protocol}`);
  }
  const fromUrl = parsed.searchParams.get('project');
  parsed.searchParams.delete('project');
  if (fromUrl !== null && optionProject !== undefined && fromUrl !== optionProject) {
    throw new InvalidInputError(`the store URL names project "${fromUrl}" and the options name "${optionProject}"; name one project`);
  }
  const project = optionProject ?? fromUrl ?? 'default';
  if (project.length === 0) throw new InvalidInputError('project: expected a non-empty project name');
  const connectTimeoutMs = connectTimeoutOf(parsed.searchParams.get('connect_timeout'));
  parsed.searchParams.delete('connect_timeout');
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || (parsed.username ? decodeURIComponent(parsed.username) : '');
  return {
    connectionString: parsed.toString(),
    project,
    where: `postgres://${parsed.host}${parsed.pathname}`,
    address: `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}`,
    database,
    user: parsed.username ? decodeURIComponent(parsed.username) : null,
    connectTimeoutMs,
  };
}

/** `connect_timeout` in seconds (libpq: 0 or absent waits for ever; we wait DEFAULT_CONNECT_TIMEOUT_MS when absent). */
function connectTimeoutOf(text: string | null): number {
  if (text === null) return DEFAULT_CONNECT_TIMEOUT_MS;
  const seconds = Number(text);
  if (!/^\d+(\.\d+)?$/.test(text) || !Number.isFinite(seconds)) {
    throw new InvalidInputError(`store URL: connect_timeout: expected a number of seconds, got ${JSON.stringify(text)}`);
  }
  return seconds === 0 ? 0 : Math.max(1, Math.round(seconds * 1000));
}

/** A store URL fit for messages and logs: its password replaced by `***` (a URL that does not parse loses everything between `//` and `@`). */
export function redactStoreUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '***';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/[^/]*@/, '//***@');
  }
}

/** The URL with no password at all (for a URL stored or sent where a `***` would be taken for the password). */
export function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password === '') return url;
    parsed.password = '';
    return parsed.toString();
  } catch {
    return url.replace(/\/\/([^/:@]*):[^/]*@/, '//$1@');
  }
}

/**
 * `url` with the password of `from` when `url` has none and both name the same role, server and
 * database: a queued job names its store without the password, and the worker's own `--store`
 * supplies it. Otherwise `url` as it is (pg then looks in PGPASSWORD and ~/.pgpass).
 */
export function lendPassword(url: string, from: string | undefined): string {
  if (from === undefined) return url;
  try {
    const target = new URL(url);
    const source = new URL(from);
    const same = target.password === '' && source.password !== '' && target.protocol.replace('postgresql:', 'postgres:') === source.protocol.replace('postgresql:', 'postgres:') &&
      target.username === source.username && target.host === source.host && target.pathname === source.pathname;
    if (!same) return url;
    target.password = source.password;
    return target.toString();
  } catch {
    return url;
  }
}
