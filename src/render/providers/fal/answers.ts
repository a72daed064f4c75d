import { redactSecrets } from '../../../text/secret-redaction.js';

/**
 * Every text fal answers with enters annot through here: error details, status bodies and their
 * logs, results, the status event stream. fal may echo the credentials it was sent (`Invalid key:
 * …`, a validation error quoting the headers, a runner's log line); they are taken out before
 * anything is parsed, so no message, event, cache entry or file built from an answer holds them.
 */
export function answerText(text: string, key: string | undefined): string {
  return redactSecrets(text, [key]);
}
