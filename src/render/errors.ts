import { AnnotError, InvalidInputError, NotFoundError } from '../errors/annot-error.js';

/** One problem found in a scene file: where it is and what was expected there. */
export interface SceneProblem {
  /** The field in dotted/bracket form, e.g. `beats[3].speaker` (empty for the whole document). */
  field: string;
  /** 1-based line in the file, when the file was YAML or JSON text we could map back to. */
  line?: number;
  /** What is wrong, e.g. `expected string`. */
  message: string;
}

/**
 * A scene file that cannot be loaded: a YAML/JSON syntax error or a value the scene schema
 * rejects. The message names the file, the line and the field of the first problem; `problems`
 * lists all of them.
 */
export class SceneFileError extends InvalidInputError {
  override readonly code = 'ANNOT_SCENE_INVALID';

  constructor(readonly file: string, readonly problems: SceneProblem[]) {
    super(describeProblems(file, problems));
  }
}

function describeProblems(file: string, problems: SceneProblem[]): string {
  const lines = problems.slice(0, 10).map((p) => {
    const where = p.line !== undefined ? `${file}:${p.line}` : file;
    return `${where}: ${p.field ? `${p.field}: ` : ''}${p.message}`;
  });
  const more = problems.length > 10 ? `\n(and ${problems.length - 10} more problems)` : '';
  return `${lines.join('\n')}${more}\nFix the scene file and run the command again.`;
}

/** pickModel was asked for a category the catalog does not have. */
export class UnknownModelCategoryError extends NotFoundError {
  override readonly code = 'ANNOT_UNKNOWN_MODEL_CATEGORY';

  constructor(readonly category: string, readonly known: readonly string[]) {
    super(`no models known for category "${category}"; known categories: ${known.join(', ')}.`);
  }
}

/** resolveModel was given an id or alias that no catalog record carries. */
export class UnknownModelError extends NotFoundError {
  override readonly code = 'ANNOT_UNKNOWN_MODEL';

  constructor(readonly model: string) {
    super(
      `no model "${model}" in the catalog (by id or alias). List the catalog with \`annot render models\`; ` +
        'a model id that is not in the catalog can still be passed as an override (e.g. imageModelId).',
    );
  }
}

/**
 * A model override that is neither a catalog id or alias nor an explicit `owner/model` fal
 * endpoint id: most likely a typo, so the nearest catalog names are suggested.
 */
export class UnknownModelOverrideError extends NotFoundError {
  override readonly code = 'ANNOT_UNKNOWN_MODEL';

  constructor(readonly flag: string, readonly model: string, readonly suggestions: string[]) {
    super(
      `${flag} "${model}" is not a model id or alias in the catalog` +
        `${suggestions.length > 0 ? `; did you mean ${suggestions.map((x) => `"${x}"`).join(' or ')}?` : '.'}` +
        ' List the catalog with `annot render models`, or give a fal endpoint id in full (owner/model, e.g. fal-ai/flux/dev).',
    );
  }
}

/** The fal provider was chosen but no API key is set. */
export class MissingFalKeyError extends InvalidInputError {
  override readonly code = 'ANNOT_FAL_KEY_MISSING';

  constructor() {
    super(
      'the fal provider needs an API key and none is set. Set the FAL_KEY environment variable ' +
        '(e.g. `export FAL_KEY=<your key>`; keys are made at https://fal.ai/dashboard/keys), ' +
        'or render an offline preview with the local provider (--provider local).',
    );
  }
}

/**
 * A manifest path that already holds the manifest of another scene file: writing would lose it.
 */
export class ManifestOfOtherSceneError extends InvalidInputError {
  override readonly code = 'ANNOT_MANIFEST_OTHER_SCENE';

  constructor(readonly manifestPath: string, readonly recordedScene: string, readonly scene: string) {
    super(
      `${manifestPath} is the manifest of ${recordedScene}, not of ${scene}; refusing to overwrite it. ` +
        'Give this scene its own manifest path (--manifest), or delete the old manifest.',
    );
  }
}

/**
 * A model produced nothing where the render cannot go on without it. The messages are the ones
 * the product description gives, word for word.
 */
export class RenderProducedNoAssetError extends AnnotError {
  readonly code = 'ANNOT_RENDER_NO_ASSET';

  constructor(message: string, readonly unitKind: 'beat' | 'shot', readonly unitId: string) {
    super(message);
  }
}

/** The caller aborted the render (Ctrl-C); queued model requests were cancelled. */
export class RenderAbortedError extends AnnotError {
  readonly code = 'ANNOT_RENDER_ABORTED';

  constructor(what: string) {
    super(`${what} was aborted; model requests still queued were cancelled, running ones are collected by the next render, and finished units stay cached.`);
  }
}

// ---------------------------------------------------------------------------------------------
// fal.ai errors. Messages never contain the API key; they say what to do next.

/** Common shape of everything the fal provider throws. */
export abstract class FalError extends AnnotError {
  constructor(
    message: string,
    readonly modelId: string,
    readonly status?: number,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** 401/403, or no key at all. */
export class FalUnauthorized extends FalError {
  readonly code = 'ANNOT_FAL_UNAUTHORIZED';

  constructor(modelId: string, status: number | undefined, detail: string) {
    super(
      `fal refused the credentials for ${modelId}${status ? ` (HTTP ${status})` : ''}: ${detail}. ` +
        'Set the FAL_KEY environment variable to a valid fal API key (keys are made at https://fal.ai/dashboard/keys).',
      modelId,
      status,
    );
  }
}

/** 429 after every retry was used. */
export class FalRateLimited extends FalError {
  readonly code = 'ANNOT_FAL_RATE_LIMITED';

  constructor(modelId: string, readonly retryAfterS: number | null, detail: string) {
    super(
      `fal rate-limited the calls to ${modelId} (HTTP 429) and the retries ran out: ${detail}. ` +
        'Lower --concurrency or wait a moment, then run again (finished units are cached).',
      modelId,
      429,
    );
  }
}

/** A 4xx other than 401/403/429, or a request that fal reports failed for its input. */
export class FalBadRequest extends FalError {
  readonly code = 'ANNOT_FAL_BAD_REQUEST';

  constructor(modelId: string, status: number | undefined, readonly detail: unknown) {
    super(
      `fal rejected the request to ${modelId}${status ? ` (HTTP ${status})` : ''}: ${describeDetail(detail)}. ` +
        'Check the arguments for this model (or pick another model); retrying the same input will fail again.',
      modelId,
      status,
    );
  }
}

/** 5xx after every retry, a failed runner, or a response that is not what the protocol says. */
export class FalServerError extends FalError {
  readonly code = 'ANNOT_FAL_SERVER_ERROR';

  constructor(modelId: string, status: number | undefined, detail: string, options?: { cause?: unknown }) {
    super(
      `fal failed to run ${modelId}${status ? ` (HTTP ${status})` : ''}: ${detail}. ` +
        'This is on fal\'s side or the network; run again later (finished units are cached).',
      modelId,
      status,
      options,
    );
  }
}

/** The per-call time limit passed; the request was cancelled. */
export class FalTimeout extends FalError {
  readonly code = 'ANNOT_FAL_TIMEOUT';

  constructor(modelId: string, readonly elapsedMs: number) {
    super(
      `the call to ${modelId} did not finish within ${(elapsedMs / 1000).toFixed(1)} s and was cancelled. ` +
        'The model may be overloaded or hung: run again, raise the timeout, or choose another model.',
      modelId,
    );
  }
}

/** Turns fal's `detail` (a string, or a list of {loc, msg, type}) into one readable line. */
export function describeDetail(detail: unknown): string {
  if (typeof detail === 'string') return detail;
  if (Array.isArray(detail)) {
    const parts = detail.map((d) => {
      if (d && typeof d === 'object') {
        const item = d as { loc?: unknown; msg?: unknown; type?: unknown };
        const loc = Array.isArray(item.loc) ? item.loc.filter((x) => x !== 'body').join('.') : '';
        const msg = typeof item.msg === 'string' ? item.msg : JSON.stringify(d);
        return `${loc ? `${loc}: ` : ''}${msg}${typeof item.type === 'string' ? ` [${item.type}]` : ''}`;
      }
      return String(d);
    });
    return parts.join('; ') || 'no detail given';
  }
  if (detail === undefined || detail === null) return 'no detail given';
  return JSON.stringify(detail);
}
