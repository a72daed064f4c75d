// TypeDoc: the HTML reference of every entry point in package.json's `exports` (npm run docs, into
// build/docs/). Offline: it reads only the sources and the installed packages' declarations.
// Warnings are errors, so an exported name without a doc comment, a type the reference cannot
// show, or a {@link} that points nowhere fails the build.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const entryPoints = Object.values(pkg.exports)
  .filter((target) => typeof target === 'object' && target.types)
  .map((target) => target.types.replace(/^\.\/dist\//, './').replace(/\.d\.ts$/, '.ts'));

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
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, notDocumented: true, unusedMergeModuleWith: true },
};
