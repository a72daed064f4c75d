import { InvalidAnnotationError } from '../../src/model/errors.js';
import { FormatParseError } from '../../src/adapters/errors.js';
import { isPlaced, placedInFile } from '../../src/adapters/refusal-place.js';

describe('placedInFile: a model refusal named at its place in a file, once', () => {
  it('names the file and the line, the column and the path as a FormatParseError does', () => {
    expect((placedInFile(new InvalidAnnotationError('body', 'too long'), 'talk.vtt', { line: 7 }) as Error).message).toBe('talk.vtt:7: body: too long');
    expect((placedInFile(new InvalidAnnotationError('body', 'too long'), 'talk.eaf', { line: 3, column: 5, path: 'TIER[1]' }) as Error).message).toBe('talk.eaf:3:5 (TIER[1]): body: too long');
    expect((placedInFile(new InvalidAnnotationError('body', 'too long'), 'x.jams', { path: '$.annotations[0]' }) as Error).message).toBe('x.jams ($.annotations[0]): body: too long');
    expect((placedInFile(new InvalidAnnotationError('body', 'too long'), 'x.jams') as Error).message).toBe('x.jams: body: too long');
  });

  it('names a refusal once: a caller further out that names it again changes nothing', () => {
    const error = new InvalidAnnotationError('tier', 'too long');
    placedInFile(error, 'talk.TextGrid', { line: 11 });
    expect(isPlaced(error)).toBe(true);
    placedInFile(error, 'talk.TextGrid');
    expect(error.message).toBe('talk.TextGrid:11: tier: too long');
  });

  it('leaves a refusal that names its file already, and errors that are not the model\'s refusals, as they are', () => {
    const worded = new InvalidAnnotationError('talk.vtt: cue 2', 'bad');
    expect((placedInFile(worded, 'talk.vtt', { line: 4 }) as Error).message).toBe('talk.vtt: cue 2: bad');
    const parse = new FormatParseError('talk.vtt', { line: 2 }, 'expected "-->"');
    expect((placedInFile(parse, 'talk.vtt', { line: 9 }) as Error).message).toBe('talk.vtt:2: expected "-->"');
    const other = new Error('disk');
    expect(placedInFile(other, 'talk.vtt', { line: 1 })).toBe(other);
    expect(other.message).toBe('disk');
  });
});
