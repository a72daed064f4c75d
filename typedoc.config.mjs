// TypeDoc: the HTML reference of every entry point in package.json's `exports` (npm run docs, into
// build/docs/). Offline: it reads only the sources and the installed packages' declarations.
// Warnings are errors, so an exported name without a doc comment, a type the reference cannot
// show, or a {@link} that points nowhere fails the build.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const entryPoints = Object.values(pkg.exports)
  .filter((target) => typeof target === 'object' && target.types)
  .map((target) => target.types.replace(/^\.\/dist\//, './').replace(/\.d\.ts$/, '.ts'));

// ERROR_TABLE's rows carry their meaning as data (`meaning`: docs/errors.md and `annot errors` show
// it), not as a doc comment on each of them.
const errorTableRows = [...readFileSync(new URL('./src/errors/error-table.ts', import.meta.url), 'utf8').matchAll(/^\s+(ANNOT_\w+): row\(/gm)].map(
  (match) => `annot.ERROR_TABLE.__type.${match[1]}`,
);

/** @type {Partial<import('typedoc').TypeDocOptions>} */
export default {
  name: `${pkg.name} ${pkg.version}`,
  entryPoints,
  tsconfig: './tsconfig.build.json',
  out: './build/docs',
  readme: 'none',
  disableSources: true,
  hideGenerator: true,
  excludePrivate: true,
  excludeProtected: true,
  excludeInternal: true,
  treatWarningsAsErrors: true,
  intentionallyNotDocumented: errorTableRows,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true, unusedMergeModuleWith: true },
};
