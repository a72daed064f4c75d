import { AnnotError } from '../../src/errors/annot-error.js';
import { ERROR_TABLE, exitStatusFor } from '../../src/errors/error-table.js';
import { describeFailure } from '../../src/cli/errors.js';
import { httpFailure } from '../../src/server/errors.js';
import { LossyTimeConversionError } from '../../src/time/errors.js';
import { PreconditionRequiredError } from '../../src/service/errors.js';

function errorWithCode(code: string): AnnotError {
  return new (class extends AnnotError {
    readonly code = code;
  })(`failure ${code}`);
}

describe('the one error table', () => {
  it.each(Object.entries(ERROR_TABLE))('%s: HTTP answers its status and code, the CLI exits with its status', (code, row) => {
    const failure = httpFailure(errorWithCode(code));
    expect(failure.status).toBe(row.http);
    expect(failure.body.error.code).toBe(code);
    const cli = describeFailure(errorWithCode(code));
    expect(cli.exitCode).toBe(row.exit);
    expect(cli.code).toBe(code);
  });

  it('uses the table for real error classes', () => {
    expect(httpFailure(new LossyTimeConversionError('x')).status).toBe(400);
    expect(httpFailure(new PreconditionRequiredError('x')).status).toBe(428);
    expect(exitStatusFor('ANNOT_USAGE')).toBe(2);
    expect(exitStatusFor('ANNOT_SOMETHING_NEW')).toBe(1);
  });
});
