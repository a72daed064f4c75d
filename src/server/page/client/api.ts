// The page's side of the HTTP API: every request carries the token when the server wants one.

export interface Time {
  v: number;
  r: number;
}

export interface AnnotationWire {
  id: string;
  tier: string;
  reference: { kind: 'media'; asset_id: string; interval: { start: Time; end: Time } } | { kind: 'annotation'; target_id: string };
  body: Record<string, unknown>;
  body_schema_uri: string;
  provenance: Record<string, unknown>;
  confidence: number | null;
}

export interface TierWire {
  name: string;
  stereotype: string;
  parent: string | null;
  metadata: Record<string, unknown>;
}

export interface OpLogEvent {
  clock: number;
  kind: 'add_tier' | 'add_annotation' | 'update_annotation' | 'delete_annotation' | 'set_meta';
  target_id: string | null;
  payload: Record<string, unknown>;
  actor: string;
  etag?: string;
}

/** A failed request: the status and the server's `{error: {code, message}}`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
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
    for (let attempt = 0; ; attempt++) {
      const init: RequestInit = { method, headers: { ...headers, 'X-Actor': 'timeline-page' } };
      if (this.token) (init.headers as Record<string, string>).Authorization = `Bearer ${this.token}`;
      if (body !== undefined) {
        init.body = JSON.stringify(body);
        (init.headers as Record<string, string>)['Content-Type'] = 'application/json';
      }
      const response = await fetch(path, init);
      if (response.status === 401 && attempt < 5) {
        this.token = await this.askToken(this.token !== null);
        sessionStorage.setItem(TOKEN_KEY, this.token);
        continue;
      }
      const text = await response.text();
      const parsed = text === '' ? undefined : (JSON.parse(text) as unknown);
      if (!response.ok) {
        const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
        throw new ApiError(response.status, error?.code ?? `HTTP_${response.status}`, error?.message ?? response.statusText);
      }
      return { value: parsed as T, etag: response.headers.get('ETag'), headers: response.headers };
    }
  }

  /** A URL for an element that cannot send headers (EventSource, media): the token goes in the query. */
  withToken(path: string): string {
    if (!this.token) return path;
    return `${path}${path.includes('?') ? '&' : '?'}token=${encodeURIComponent(this.token)}`;
  }
}
