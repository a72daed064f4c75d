import { ERROR_TABLE, type ErrorCode, type ErrorRow } from './error-table.js';

/** One registered code with its row, as `annot errors --json` and the documentation list them. */
export interface DocumentedCode extends ErrorRow {
  readonly code: ErrorCode;
}

/** Every registered code, in alphabetical order (how a reader looks one up). */
export function documentedCodes(): DocumentedCode[] {
  return (Object.keys(ERROR_TABLE) as ErrorCode[]).sort().map((code) => ({ code, ...ERROR_TABLE[code] }));
}

/**
 * docs/errors.md, generated from the registry (`npm run errors-doc`); a test fails when the page
 * in the repository is not this text.
 */
export function errorCodesMarkdown(): string {
  const rows = documentedCodes().map(({ code, http, exit, meaning }) => `| \`${code}\` | ${http} | ${exit} | ${meaning.replace(/\|/g, '\\|')} |`);
  return [
    '# Error codes',
    '',
    '<!-- Generated from src/errors/error-table.ts by `npm run errors-doc`. Do not edit: change the registry. -->',
    '',
    'Every error annot reports on purpose carries one of these stable codes. Scripts key on the code, never on the',
    'message, which is written for a person and free to improve. The same code appears on every surface:',
    '',
    '- the CLI prints `annot: <message> [ANNOT_CODE]` on stderr and, with `--json`, `{"error": {"code", "message", "exit_code"}}`',
    '  on stdout, and exits with the status below;',
    '- the HTTP server answers `{"error": {"code", "message", "details"?}}` with the status below;',
    '- the MCP server returns a tool error whose structured content is `{"error": {"code", "message"}}`.',
    '',
    '`annot errors` prints this list, and `annot errors CODE` one entry.',
    '',
    '| Code | HTTP | Exit | Meaning |',
    '|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
