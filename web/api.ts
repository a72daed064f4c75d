// The page's side of the HTTP API: every request carries the token when the server wants one.
import type { ErrorBody, ErrorCode, TierViolation } from './wire.js';

/** A violation as a failing response's `details.violations` lists it (server/errors.ts): the annotations it names. */
export type ViolationDetail = Pick<TierViolation, 'tier' | 'code' | 'annotation_id' | 'related_ids' | 'message'>;

/** A failed request: the status and the server's `{error: {code, message, details}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | `HTTP_${number}`,
    message: string,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
  }

  /** The annotations the server named in its refusal (a tier constraint's violations). */
  get violations(): ViolationDetail[] {
    return Array.isArray(this.details.violations) ? (this.details.violations as ViolationDetail[]) : [];
  }
}

/** A failed response as an ApiError: the server's `{error: {code, message, details}}`, else the status. */
function errorOf(response: Response, parsed: unknown): ApiError {
  const error = (parsed as Partial<ErrorBody> | undefined)?.error;
  return new ApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? response.statusText, error?.details);
}

export interface Answer<T> {
  value: T;
  etag: string | null;
  headers: Headers;
}

const TOKEN_KEY = 'annot-token';

/** Fetches JSON with the token; a 401 asks the user for the token once, then retries. */
export class Api {
  private token: string | null = sessionStorage.getItem(TOKEN_KEY);

  constructor(private readonly askToken: (retry: boolean) => Promise<string>) {}

  async request<T>(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer<T>> {
    const response = await this.fetchAuthorized(method, path, body, headers);
    const text = await response.text();
    const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
    if (!response.ok) throw errorOf(response, parsed);
    return { value: parsed as T, etag: response.headers.get('ETag'), headers: response.headers };
  }

  /** A GET of bytes (the waveform's binary peaks), with the answer's headers; a failure is an ApiError as for JSON. */
  async bytes(path: string): Promise<{ bytes: ArrayBuffer; headers: Headers }> {
    const response = await this.fetchAuthorized('GET', path, undefined, {});
    if (response.ok) return { bytes: await response.arrayBuffer(), headers: response.headers };
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    throw errorOf(response, parsed);
  }

  /** The response, after asking the user for the token on a 401 (then retrying). */
  private async fetchAuthorized(method: string, path: string, body: unknown, headers: Record<string, string>): Promise<Response> {
    for (let attempt = 0; ; attempt++) {
      const response = await fetch(path, this.init(method, body, headers));
      if (response.status !== 401 || attempt >= 5) return response;
      await response.body?.cancel();
      this.token = await this.askToken(this.token !== null);
      sessionStorage.setItem(TOKEN_KEY, this.token);
    }
  }

  private init(method: string, body: unknown, extra: Record<string, string>): RequestInit {
    const headers: Record<string, string> = { ...extra, 'X-Actor': 'timeline-page' };
    if (this.token) headers.Authorization = `Bearer ${this.token}`;
    if (body === undefined) return { method, headers };
    headers['Content-Type'] = 'application/json';
    return { method, headers, body: JSON.stringify(body) };
  }

  /** A URL for an element that cannot send headers (EventSource, media): the token goes in the query. */
  withToken(path: string): string {
    if (!this.token) return path;
    return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(this.token)}`;
  }
}
