import * as annot from '../src/index.js';

describe('the package root', () => {
  it('exports the public API named in the description, in camelCase', () => {
    const names = [
      'RationalTime', 'TimeInterval', 'AllenRelation', 'relate', 'intersects', 'compose', 'TierStereotype', 'validateTierConstraint',
      'UNKNOWN_GENERATED_AT', 'registerBodySchema', 'validateBody', 'registerMigration', 'migrate', 'exportJsonSchemas', 'hashBytes',
      'hashFile', 'annotationEtag', 'annotationValueDigest', 'annotationBodyDigest', 'NonStringBodyKeyError', 'LossyTimeConversionError',
      'cohenKappa', 'krippendorffAlpha', 'intervalIou', 'boundaryIou', 'makeApprovalReview', 'annotationFromWire', 'annotationToWire',
      'MemoryStore', 'MappingStore', 'SqliteStore', 'SubtitleBuilder', 'SubtitleTrack', 'AnnotationService', 'stateAt',
      'registerBuiltinFormats', 'inferFormat', 'FormatParseError',
      'renderBeat', 'renderShot', 'renderScene', 'iterRenderScene', 'manifestPathFor', 'withCredentials', 'pickModel', 'loadSceneFile',
      'LocalProvider', 'FalProvider',
      'openRemoteCache', 'RemoteCache', 'REMOTE_CACHE_MODES', 'UsageError', 'UnitNotStartedError',
    ];
    const missing = names.filter((name) => !(name in annot));
    expect(missing).toEqual([]);
  });

  it('gives every exported error class a stable code', () => {
    const errors = Object.entries(annot).filter(([, value]) => typeof value === 'function' && value.prototype instanceof annot.AnnotError);
    expect(errors.length).toBeGreaterThan(20);
    for (const [name, ErrorClass] of errors) {
      const instance = Object.create((ErrorClass as { prototype: object }).prototype) as { code?: unknown };
      // `code` is an instance field: construct cheaply where the constructor allows it.
      let code: unknown = instance.code;
      try {
        code = (new (ErrorClass as new (...args: unknown[]) => { code: string })('x', 'y', 'z') as { code: string }).code;
      } catch {
        // constructors with required typed arguments are checked by their own tests
      }
      if (code !== undefined) expect({ name, code }).toEqual({ name, code: expect.stringMatching(/^ANNOT_[A-Z_]+$|^FAL_[A-Z_]+$/) });
    }
  });
});
