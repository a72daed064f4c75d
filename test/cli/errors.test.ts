import { describeFailure, EXIT_FAILURE, EXIT_USAGE } from '../../src/cli/errors.js';
import { InvalidInputError } from '../../src/errors/annot-error.js';

describe('describeFailure', () => {
  it('maps our typed errors to their message, their stable code and exit 1', () => {
    const failure = describeFailure(new InvalidInputError('beats[3].speaker: expected string'));
    expect(failure).toEqual({ message: 'beats[3].speaker: expected string', exitCode: EXIT_FAILURE, code: 'ANNOT_INVALID_INPUT' });
  });

  it('maps parser errors (which carry parse details) to exit 2', () => {
    const error = Object.assign(new Error('Missing 1 required arg'), { parse: {} });
    expect(describeFailure(error).exitCode).toBe(EXIT_USAGE);
  });

  it('turns a missing file into one line naming the path', () => {
    const error = Object.assign(new Error("ENOENT: no such file or directory, open 'x.annot'"), { code: 'ENOENT', path: 'x.annot' });
    expect(describeFailure(error)).toEqual({ message: 'x.annot: no such file or directory', exitCode: EXIT_FAILURE, code: 'ANNOT_SYSTEM_ENOENT' });
  });

  it('reports an unexpected error in one line with its class, never as a bare stack', () => {
    const failure = describeFailure(new TypeError('x is undefined'));
    expect(failure.message).toBe('internal error (TypeError): x is undefined');
    expect(failure.exitCode).toBe(EXIT_FAILURE);
  });
});
