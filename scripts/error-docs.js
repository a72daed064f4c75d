// Writes docs/errors.md from the error registry (src/errors/error-table.ts), as built in dist/.
// `npm run errors-doc` builds first; test/errors/error-registry.test.ts fails when the page in
// the repository is not what this writes. With --check, only says whether the page is current.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { errorCodesMarkdown } from '../dist/src/errors/error-docs.js';

const page = join(dirname(fileURLToPath(import.meta.url)), '..', 'docs', 'errors.md');
const text = errorCodesMarkdown();
let current = '';
try {
  current = readFileSync(page, 'utf8');
} catch {
  // no page yet
}
if (process.argv.includes('--check')) {
  if (current !== text) {
    console.error(`${page} is not current: run npm run errors-doc`);
    process.exit(1);
  }
} else if (current !== text) {
  writeFileSync(page, text);
  console.log(`wrote ${page}`);
}
