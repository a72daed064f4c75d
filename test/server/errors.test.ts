import { InvalidInputError, NotFoundError } from '../../src/errors/annot-error.js';
import type { ErrorCode } from '../../src/errors/error-table.js';
import { PreconditionFailedError } from '../../src/oplog/errors.js';
import { BodyValidationError } from '../../src/schemas/errors.js';
import { BodyTooLargeError, httpFailure } from '../../src/server/errors.js';
import { PreconditionRequiredError } from '../../src/service/errors.js';
import { AnnotationNotFoundError, DuplicateAnnotationIdError } from '../../src/store/errors.js';
import { LossyTimeConversionError } from '../../src/time/errors.js';

describe('HTTP error mapping', () => {
  it.each([
    [new PreconditionRequiredError('x'), 428],
    [new PreconditionFailedError('id', '"a"', '"b"'), 412],
    [new AnnotationNotFoundError('x'), 404],
    [new DuplicateAnnotationIdError('x'), 409],
    [new BodyValidationError('annot://schema/word/v1', []), 422],
    [new LossyTimeConversionError('x'), 400],
    [new BodyTooLargeError(10), 413],
  ])('maps %p to its status by code', (error, status) => {
    expect(httpFailure(error).status).toBe(status);
    expect(httpFailure(error).body.error.code).toBe(error.code);
  });

  it('maps a code the registry lacks (only JavaScript can throw one) by its family: not found 404, invalid input 400', () => {
    class NewNotFound extends NotFoundError {
      override readonly code = 'ANNOT_SOMETHING_NEW_MISSING' as ErrorCode;
    }
    class NewInvalid extends InvalidInputError {
      override readonly code = 'ANNOT_SOMETHING_NEW_INVALID' as ErrorCode;
    }
    expect(httpFailure(new NewNotFound('x')).status).toBe(404);
    expect(httpFailure(new NewInvalid('x')).status).toBe(400);
  });

  it('turns anything else into a 500 that tells nothing of the internals, and keeps the error for the log', () => {
    const failure = httpFailure(new TypeError('cannot read properties of undefined (reading "secret")'));
    expect(failure.status).toBe(500);
    expect(failure.body).toEqual({ error: { code: 'ANNOT_INTERNAL', message: expect.not.stringContaining('secret') } });
    expect(failure.internal?.message).toContain('secret');
  });

  it('gives the details a client acts on: the current ETag on 412, the issues on 422', () => {
    expect(httpFailure(new PreconditionFailedError('id', '"a"', '"b"')).body.error.details).toEqual({ current_etag: '"a"' });
    const issues = [{ path: 'body.text', message: 'missing (required)', keyword: 'required' }];
    expect(httpFailure(new BodyValidationError('annot://schema/word/v1', issues)).body.error.details).toEqual({ issues });
  });
});
