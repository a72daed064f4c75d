/**
 * The last guard against a password in a message: every surface (the CLI's error line, HTTP error
 * bodies, MCP tool errors, logs) passes what it shows through `redactUrlCredentials`, so a URL
 * with credentials that slipped into a message from anywhere (a driver's error, a path the user
 * typed, an error wrapped twice) is shown as `postgres://user:***@host/...`. The places that
 * know a URL redact it themselves first; this catches what they could not know about.
 */

/** `scheme://user:password@` anywhere in a text; the password runs to the last `@` before the host. */
const URL_WITH_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^\s/?#@:'"]*):[^\s/?#'"]*@/gi;

/** The text with every URL's password replaced by `***` (user names and hosts are kept: they say which server). */
export function redactUrlCredentials(text: string): string {
  return text.includes('://') ? text.replace(URL_WITH_PASSWORD, '$1:***@') : text;
}
