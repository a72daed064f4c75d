import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SceneFileError } from '../../src/render/errors.js';
import { editDistance } from '../../src/text/nearest-name.js';
import { loadSceneFile, parseSceneText, sceneFromValue, sceneWarnings } from '../../src/render/scene.js';

const fixture = join(process.cwd(), 'fixtures/scenes/diner.yaml');

function loadError(text: string, file = 'scene.yaml'): SceneFileError {
  try {
    parseSceneText(text, file);
  } catch (error) {
    expect(error).toBeInstanceOf(SceneFileError);
    return error as SceneFileError;
  }
  throw new Error('expected the scene to be rejected');
}

describe('scene files', () => {
  it('loads the YAML example scene with every record and its defaults', async () => {
    const scene = await loadSceneFile(fixture);
    expect(scene.title).toBe('Night at the Diner');
    expect(scene.characters.map((c) => c.name)).toEqual(['Sarah', 'Tom', 'Narrator']);
    expect(scene.characters[0].voice).toEqual({ name: '', voice_id: 'Rachel', reference_audio_url: '', model_id: '', style_notes: '' });
    expect(scene.characters[2].reference_image_url).toBe('');
    expect(scene.shots[1]).toEqual({
      id: 's2', description: 'close on Sarah pouring coffee', framing: 'close', environment: 'diner', characters: ['Sarah'], camera: '', notes: '',
    });
    expect(scene.beats[4]).toEqual({ id: 'b5', speaker: 'Sarah', line: '', action: '', emotion: '', shot_id: '', duration_s: null, notes: '' });
    expect(scene.notes).toBe('');
  });

  it('fills the documented defaults: framing medium, voice null, empty lists', () => {
    const scene = parseSceneText('title: t\nshots: [{id: a}]\ncharacters: [{name: X}]\n', 'min.yaml');
    expect(scene.shots[0].framing).toBe('medium');
    expect(scene.characters[0].voice).toBeNull();
    expect(scene.beats).toEqual([]);
    expect(scene.style).toBe('');
  });

  it('loads the same scene from JSON', () => {
    const scene = parseSceneText(JSON.stringify({ title: 'j', beats: [{ id: 'b', speaker: 'A', line: 'hi' }] }), 'x.json');
    expect(scene.beats[0].line).toBe('hi');
  });

  it('names the file, the line and the field of a value of the wrong type', () => {
    const text = ['title: t', 'beats:', '  - id: b0', '  - id: b1', '  - id: b2', '  - id: b3', '    speaker: 42', ''].join('\n');
    const error = loadError(text);
    expect(error.problems).toEqual([{ field: 'beats[3].speaker', line: 7, message: 'expected string' }]);
    expect(error.message).toContain('scene.yaml:7: beats[3].speaker: expected string');
    expect(error.code).toBe('ANNOT_SCENE_INVALID');
  });

  it('gives lines for JSON files too', () => {
    const text = '{\n  "title": "t",\n  "shots": [\n    {"id": "a", "framing": 3}\n  ]\n}\n';
    const error = loadError(text, 'scene.json');
    expect(error.problems[0]).toEqual({ field: 'shots[0].framing', line: 4, message: 'expected string' });
  });

  it('rejects an unknown key and suggests the key that was meant', () => {
    const error = loadError('title: t\nbeats:\n  - id: b\n    speeker: Sarah\n');
    expect(error.problems).toEqual([{ field: 'beats[0].speeker', line: 4, message: 'unknown key; did you mean "speaker"?' }]);
  });

  it('lists the allowed keys when no key is close to an unknown one', () => {
    const error = loadError('title: t\nenvironments:\n  - name: e\n    weather: rain\n');
    expect(error.problems[0].message).toBe('unknown key; allowed keys: name, description, reference_image_url, time_of_day, lighting');
  });

  it('reports a missing required field on the line of its record', () => {
    const error = loadError('title: t\nshots:\n  - description: no id\n');
    expect(error.problems).toEqual([{ field: 'shots[0].id', line: 3, message: 'required field is missing' }]);
  });

  it('reports every problem, not just the first', () => {
    const error = loadError('title: 5\nstyle: [a]\n');
    expect(error.problems.map((p) => p.field)).toEqual(['title', 'style']);
  });

  it('reports YAML syntax errors with their line', () => {
    const error = loadError('title: t\nbeats: [\n  {id: a\n');
    expect(error.problems[0].line).toBeGreaterThan(0);
    expect(error.problems[0].message).toMatch(/^not valid YAML/);
  });

  it('reports JSON syntax errors', () => {
    const error = loadError('{"title": }', 'bad.json');
    expect(error.problems[0].message).toMatch(/^not valid JSON/);
  });

  it('validates values that come from code as well', () => {
    expect(() => sceneFromValue({ title: 't', beats: [{ id: 1 }] })).toThrow(/beats\[0\]\.id: expected string/);
  });

  it('reads scene files from disk, JSON by extension', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'annot-scene-'));
    writeFileSync(join(dir, 's.json'), JSON.stringify({ title: 'from disk' }));
    expect((await loadSceneFile(join(dir, 's.json'))).title).toBe('from disk');
  });
});

describe('scene warnings', () => {
  it('warns about unknown speakers and unknown characters in shots, which are not load errors', async () => {
    const scene = await loadSceneFile(fixture);
    expect(sceneWarnings(scene)).toEqual([
      { field: 'beats[5].speaker', line: 51, message: 'no character named "Waiter"; the beat is skipped ("no character")' },
    ]);
    const other = parseSceneText('title: t\ncharacters: [{name: A}]\nshots:\n  - id: s\n    characters: [A, Zed]\n    environment: moon\n', 'w.yaml');
    expect(sceneWarnings(other).map((w) => [w.field, w.line])).toEqual([
      ['shots[0].environment', 6],
      ['shots[0].characters[1]', 5],
    ]);
  });

  it('warns about duplicate ids and beats without a speaker', () => {
    const scene = sceneFromValue({ title: 't', beats: [{ id: 'a', line: 'x' }, { id: 'a', speaker: '' }] });
    expect(sceneWarnings(scene).map((w) => w.message)).toEqual([
      'the beat has no speaker; the beat is skipped ("no character")',
      'duplicate beat id "a"; results are identified by beat_id',
      'the beat has no speaker; the beat is skipped ("no character")',
    ]);
  });
});

describe('edit distance', () => {
  it('counts insertions, deletions and substitutions', () => {
    expect(editDistance('speeker', 'speaker')).toBe(1);
    expect(editDistance('', 'abc')).toBe(3);
    expect(editDistance('kitten', 'sitting')).toBe(3);
  });
});
