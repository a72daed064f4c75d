/**
 * Takes credentials out of a text that is about to be shown, logged or written: every form of
 * the given secrets (as they are, URL-encoded, base64, and each `:`-separated part of a key such
 * as fal's `<key id>:<key secret>`), any value that looks like one whatever it is (an
 * `Authorization` value, `Key …`, `Bearer …`, `Basic …`), and the password of any URL
 * (`postgres://user:***@host/…`), each replaced by `***`. Servers echo credentials in their error
 * details and logs, and drivers put connection strings in theirs; nothing annot writes may carry
 * them on. Every surface passes what it shows through here as a last guard; the places that know
 * a secret redact it themselves first.
 */
export const REDACTED = '***';

/** Secrets shorter than this are not searched for as text (they would match ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** `Authorization: …` / `"authorization": "…"`: the value, with its scheme word if it has one. */
const AUTHORIZATION_VALUE = /(\bauthorization\b["']?\s*[:=]\s*["']?)(?:(?:key|bearer|basic|token)\s+)?[^\s"',;}]+/gi;

/** A scheme word and a token that has a digit in it and is at least 12 characters long. */
const SCHEME_TOKEN = /\b(key|bearer|basic|token)(\s+)(?=[\w.~+/=:-]*\d)[\w.~+/=:-]{12,}/gi;

/** `scheme://user:password@` anywhere in a text; the password runs to the last `@` before the host. */
const URL_WITH_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:'"]*):[^\s/?#'"]*@/gi;

export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined> = []): string {
  let out = redactUrlCredentials(text);
  for (const form of secretForms(secrets)) out = out.split(form).join(REDACTED);
  return out.replace(AUTHORIZATION_VALUE, `$1${REDACTED}`).replace(SCHEME_TOKEN, `$1$2${REDACTED}`);
}

/** The text with every URL's password replaced by `***` (user names and hosts are kept: they say which server). */
export function redactUrlCredentials(text: string): string {
  return text.includes('://') ? text.replace(URL_WITH_PASSWORD, `$1:${REDACTED}@`) : text;
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
