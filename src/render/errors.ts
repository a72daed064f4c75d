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
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_SCENE_INVALID';

  constructor(
    /** The scene file, as its path was given. */
    readonly file: string,
    /** Every problem found, each with its line and column where known. */
    readonly problems: SceneProblem[],
  ) {
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
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_UNKNOWN_MODEL_CATEGORY';

  constructor(
    /** The model category that was asked for. */
    readonly category: string,
    /** The categories there are. */
    readonly known: readonly string[],
  ) {
    super(`no models known for category "${category}"; known categories: ${known.join(', ')}.`);
  }
}

/** resolveModel was given an id or alias that no catalog record carries. */
export class UnknownModelError extends NotFoundError {
  /** The stable code of this error (see docs/errors.md). */
  override readonly code = 'ANNOT_UNKNOWN_MODEL';

  constructor(
    /** The model id or alias that was asked for. */
    readonly model: string,
  ) {
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
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_RENDER_NO_ASSET';

  constructor(
    message: string,
    /** The kind of the unit that produced no asset. */
    readonly unitKind: 'beat' | 'shot',
    /** The id of that shot or beat. */
    readonly unitId: string,
  ) {
    super(message);
  }
}

/** The caller aborted the render (Ctrl-C); queued model requests were cancelled. */
export class RenderAbortedError extends AnnotError {
  /** The stable code of this error (see docs/errors.md). */
  readonly code = 'ANNOT_RENDER_ABORTED';

  constructor(what: string) {
    super(`${what} was aborted; model requests still queued were cancelled, running ones are collected by the next render, and finished units stay cached.`);
  }
}

/**
 * `render scene --strict` on a scene that `annot validate --strict` fails: the findings were
 * printed, and nothing was rendered or paid for.
 */
export class SceneFindingsError extends AnnotError {
  readonly code = 'ANNOT_SCENE_FINDINGS';

  constructor(readonly file: string, readonly errors: number, readonly warnings: number) {
    const counts = [errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : '', warnings > 0 ? `${warnings} warning${warnings === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
    super(`${file}: --strict: the scene has ${counts} (listed above), so nothing was rendered. Fix the scene (annot validate ${file} lists them again), or render without --strict.`);
  }
}

/** Two outputs of one render (or an output and the scene file) would be the same file: one would replace the other. */
export class OutputClashError extends InvalidInputError {
  override readonly code = 'ANNOT_OUTPUT_CLASH';

  constructor(readonly path: string, first: string, second: string) {
    super(`${path} would be written twice, as ${first} and as ${second}; give each output its own path.`);
  }
}
