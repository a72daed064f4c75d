/**
 * Takes credentials out of a text that is about to be shown, logged or written: every form of
 * the given secrets (as they are, URL-encoded, base64, and each `:`-separated part of a key such
 * as fal's `<key id>:<key secret>`), and any value that looks like one whatever it is (an
 * `Authorization` value, `Key …`, `Bearer …`, `Basic …`), each replaced by `***`. Servers echo
 * credentials in their error details and logs; nothing annot writes may carry them on.
 */
export const REDACTED = '***';

/** Secrets shorter than this are not searched for as text (they would match ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** `Authorization: …` / `"authorization": "…"`: the value, with its scheme word if it has one. */
const AUTHORIZATION_VALUE = /(\bauthorization\b["']?\s*[:=]\s*["']?)(?:(?:key|bearer|basic|token)\s+)?[^\s"',;}]+/gi;

/** A scheme word and a token that has a digit in it and is at least 12 characters long. */
const SCHEME_TOKEN = /\b(key|bearer|basic|token)(\s+)(?=[\w.~+/=:-]*\d)[\w.~+/=:-]{12,}/gi;

export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let out = text;
  for (const form of secretForms(secrets)) out = out.split(form).join(REDACTED);
  return out.replace(AUTHORIZATION_VALUE, `$1${REDACTED}`).replace(SCHEME_TOKEN, `$1$2${REDACTED}`);
}

/** Every form of every secret, longest first, so a whole key is replaced before its parts. */
function secretForms(secrets: ReadonlyArray<string | undefined>): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET_LENGTH) continue;
    for (const whole of [secret, encodeURIComponent(secret), Buffer.from(secret, 'utf8').toString('base64')]) forms.add(whole);
    for (const part of secret.split(':')) {
      if (part.length >= MIN_SECRET_LENGTH) forms.add(part);
    }
  }
  return [...forms].filter((form) => form.length >= MIN_SECRET_LENGTH).sort((a, b) => b.length - a.length);
}
