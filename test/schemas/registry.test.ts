import {
  assertValidBody,
  BodySchemaRegistry,
  getBodySchema,
  hasBodySchema,
  listBodySchemas,
  registerBodySchema,
  validateBody,
} from '../../src/schemas/registry.js';
import { BodySchemaConflictError, BodyValidationError, InvalidJsonSchemaError, UnknownBodySchemaError } from '../../src/schemas/errors.js';

describe('the built-in body schemas', () => {
  it('are registered on first use, one URI each', () => {
    expect(listBodySchemas()).toEqual(
      expect.arrayContaining([
        'annot://schema/word/v1',
        'annot://schema/named-entity/v1',
        'annot://schema/named-entity/v2',
        'annot://schema/review/v1',
        'annot://schema/review-candidate/v1',
        'annot://schema/song-section/v1',
        'annot://schema/lyric-line/v1',
        'annot://schema/label/v1',
      ]),
    );
    expect(listBodySchemas().filter((uri) => uri === 'annot://schema/word/v1')).toHaveLength(1);
  });

  it('accept a word with text and an optional speaker, and nothing else', () => {
    expect(validateBody('annot://schema/word/v1', { text: 'hi' }).valid).toBe(true);
    expect(validateBody('annot://schema/word/v1', { text: 'hi', speaker: null }).valid).toBe(true);
    expect(validateBody('annot://schema/word/v1', { text: 'hi', speaker: 'A' }).valid).toBe(true);
    expect(validateBody('annot://schema/word/v1', { text: 'hi', confidence: 0.5 }).errors).toEqual([
      { path: 'body.confidence', message: 'unexpected key (allowed: text, speaker)', keyword: 'additionalProperties' },
    ]);
  });

  it('report every error of a body with its field path', () => {
    const result = validateBody('annot://schema/word/v1', { speaker: 3, extra: true });
    expect(result.valid).toBe(false);
    expect(result.errors.map((e) => e.path).sort()).toEqual(['body.extra', 'body.speaker', 'body.text']);
    expect(result.errors.find((e) => e.path === 'body.speaker')!.message).toBe('expected a speaker name or id, or null, got 3');
  });

  it('keep review-candidate bodies apart from review bodies', () => {
    const candidate = { reason: 'low_confidence', source_id: '0b1f6c2e-8d3a-4c1b-9e7f-2a5d6c7e8f90', source_confidence: 0.2, threshold: 0.5, source_tier: 'words' };
    expect(validateBody('annot://schema/review-candidate/v1', candidate).valid).toBe(true);
    expect(validateBody('annot://schema/review/v1', candidate).valid).toBe(false);
  });

  it('require the decision of an approval review and the note of a comment', () => {
    expect(validateBody('annot://schema/review/v1', { kind: 'approval', accepted: false }).valid).toBe(true);
    expect(validateBody('annot://schema/review/v1', { kind: 'approval' }).errors.map((e) => e.path)).toEqual(['body.accepted']);
    expect(validateBody('annot://schema/review/v1', { kind: 'comment' }).errors.map((e) => e.path)).toEqual(['body.note']);
  });

  it('validate the subtitle and label schemas', () => {
    expect(validateBody('annot://schema/song-section/v1', { name: 'chorus' }).valid).toBe(true);
    expect(validateBody('annot://schema/lyric-line/v1', { text: 'la la', section: 'chorus', line_index: 3 }).valid).toBe(true);
    expect(validateBody('annot://schema/lyric-line/v1', { text: 'la', line_index: -1 }).valid).toBe(false);
    expect(validateBody('annot://schema/label/v1', { text: 'a', source_id: 'a1', extra: { settings: 'line:0' } }).valid).toBe(true);
    expect(validateBody('annot://schema/label/v1', { text: 'a', colour: 'red' }).valid).toBe(false);
  });

  it('hand out a frozen copy of a schema', () => {
    const schema = getBodySchema('annot://schema/word/v1');
    expect(schema.$id).toBe('annot://schema/word/v1');
    expect(Object.isFrozen(schema)).toBe(true);
  });
});

describe('registerBodySchema', () => {
  const uri = 'annot://schema/test-chord/v1';
  const schema = { type: 'object', required: ['root'], properties: { root: { type: 'string' } }, additionalProperties: false };

  it('registers a schema, accepts the identical one again and refuses a different one without replace', () => {
    registerBodySchema(uri, schema);
    registerBodySchema(uri, JSON.parse(JSON.stringify(schema)));
    expect(hasBodySchema(uri)).toBe(true);
    expect(() => registerBodySchema(uri, { ...schema, required: [] })).toThrow(BodySchemaConflictError);
    expect(validateBody(uri, {}).valid).toBe(false);
  });

  it('replaces a schema when asked, and the new one validates from then on', () => {
    const registry = new BodySchemaRegistry();
    registry.register(uri, schema);
    expect(registry.validate(uri, {}).valid).toBe(false);
    registry.register(uri, { ...schema, required: [] }, { replace: true });
    expect(registry.validate(uri, {}).valid).toBe(true);
  });

  it('does not replace a built-in when a same-named schema is registered in passing', () => {
    expect(() => registerBodySchema('annot://schema/word/v1', { type: 'object' })).toThrow(BodySchemaConflictError);
    expect(validateBody('annot://schema/word/v1', { text: 'x', other: 1 }).valid).toBe(false);
  });

  it('refuses malformed URIs, invalid schemas and a mismatched $id', () => {
    const registry = new BodySchemaRegistry();
    expect(() => registry.register('annot://schema/Bad/v1', schema)).toThrow('annot://schema/<name>/v<N>');
    expect(() => registry.register('annot://schema/bad/v1', { type: 'nonsense' })).toThrow(InvalidJsonSchemaError);
    expect(() => registry.register('annot://schema/bad/v1', { $id: 'annot://schema/other/v1' })).toThrow(InvalidJsonSchemaError);
  });

  it('knows the latest registered version of a name', () => {
    const registry = new BodySchemaRegistry();
    registry.register('annot://schema/x/v1', {});
    registry.register('annot://schema/x/v3', {});
    expect(registry.latestVersion('x')).toBe(3);
    expect(registry.latestVersion('y')).toBeNull();
  });
});

describe('validateBody and assertValidBody', () => {
  it('throw UnknownBodySchemaError for an unregistered URI', () => {
    expect(() => validateBody('annot://schema/never-registered/v1', {})).toThrow(UnknownBodySchemaError);
  });

  it('throw a typed BodyValidationError listing every failure', () => {
    try {
      assertValidBody('annot://schema/named-entity/v2', { text: 1 });
      throw new Error('expected a failure');
    } catch (error) {
      expect(error).toBeInstanceOf(BodyValidationError);
      const e = error as BodyValidationError;
      expect(e.code).toBe('ANNOT_BODY_VALIDATION');
      expect(e.issues.map((i) => i.path).sort()).toEqual(['body.entity_type', 'body.text']);
      expect(e.message).toContain('annot://schema/named-entity/v2');
    }
    expect(() => assertValidBody('annot://schema/word/v1', { text: 'ok' })).not.toThrow();
  });
});
