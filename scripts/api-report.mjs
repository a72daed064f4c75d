#!/usr/bin/env node
// The API report of every entry point in package.json's `exports` (the root and each subpath), made
// by API Extractor from the declarations `npm run build` writes, into api/<name>.api.md.
//
//   node scripts/api-report.mjs           regenerate the reports (npm run api-report)
//   node scripts/api-report.mjs --check   fail when the exported API differs from them (npm run lint)
//
// A report lists every exported name with its signature, so a change to the public API shows up as
// a diff of these files in review. An exported name (or member) without a doc comment is marked
// "(undocumented)" in its report, and both modes fail on one.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Extractor, ExtractorConfig, ExtractorLogLevel } from '@microsoft/api-extractor';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const reportFolder = join(root, 'api');
const check = process.argv.includes('--check');
const UPDATE_HINT = 'run `npm run api-report` and commit the changed api/*.api.md files (review the diff: it is the change to the public API)';

/** Each entry point of package.json's exports: its report name and the declaration file it types. */
export function entryPoints() {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  return Object.entries(pkg.exports)
    .filter(([, target]) => typeof target === 'object' && target.types)
    .map(([subpath, target]) => ({
      subpath: subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`,
      reportName: subpath === '.' ? pkg.name : `${pkg.name}-${subpath.slice(2).replaceAll('/', '-')}`,
      types: join(root, target.types),
    }));
}

function configFor(entry, tempFolder) {
  return ExtractorConfig.prepare({
    configObjectFullPath: join(root, 'api', `${entry.reportName}.api-extractor.json`),
    packageJsonFullPath: join(root, 'package.json'),
    configObject: {
      projectFolder: root,
      mainEntryPointFilePath: entry.types,
      compiler: {
        overrideTsconfig: {
          compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', lib: ['ES2023'], types: ['node'], strict: true },
          files: [entry.types],
        },
        // node_modules' own declarations are not ours to report on; the packed-package test compiles
        // annot's declarations with them under skipLibCheck: false, as a user's strict project does.
        skipLibCheck: true,
      },
      apiReport: { enabled: true, reportFileName: `${entry.reportName}.api.md`, reportFolder, reportTempFolder: tempFolder },
      docModel: { enabled: false },
      dtsRollup: { enabled: false },
      tsdocMetadata: { enabled: false },
      newlineKind: 'lf',
      messages: {
        compilerMessageReporting: { default: { logLevel: 'error' } },
        extractorMessageReporting: {
          default: { logLevel: 'warning', addToApiReportFile: true },
          // annot marks no release stages (@public, @beta): everything an entry point exports is public.
          'ae-missing-release-tag': { logLevel: 'none' },
          'ae-undocumented': { logLevel: 'none' },
          // Judged in messageCallback below: a subpath may name a type that another entry point exports.
          'ae-forgotten-export': { logLevel: 'warning', addToApiReportFile: false },
        },
        tsdocMessageReporting: { default: { logLevel: 'warning', addToApiReportFile: true } },
      },
    },
  });
}

/** The names a report declares (`export declare class X`, `export type X`, `export { X }`...). */
function namesIn(report) {
  const names = new Set();
  for (const match of report.matchAll(/^export (?:declare )?(?:abstract )?(?:class|interface|type|function|const|let|enum|namespace) (\w+)/gm)) names.add(match[1]);
  for (const match of report.matchAll(/^export \{([^}]*)\}/gm)) for (const name of match[1].split(',')) names.add(name.trim().split(/\s+as\s+/).pop());
  return names;
}

function reportOne(entry, tempFolder, exported) {
  if (!existsSync(entry.types)) {
    throw new Error(`${relative(root, entry.types)} is missing: run npm run build first`);
  }
  const messages = [];
  const forgotten = [];
  const result = Extractor.invoke(configFor(entry, tempFolder), {
    localBuild: !check,
    showVerboseMessages: false,
    messageCallback(message) {
      // Other warnings are written into the report itself (the reviewer sees them there); the rest is noise.
      if (message.messageId === 'ae-forgotten-export') {
        // A type the declarations name but no entry point exports: a user could not name it.
        const name = /"([^"]+)"/.exec(message.text)?.[1];
        if (!exported.has(name)) forgotten.push(`${name} (${message.formatMessageWithLocation(root)})`);
      } else if (message.logLevel === ExtractorLogLevel.Error) {
        messages.push(message.formatMessageWithLocation(root));
      }
      message.handled = true;
    },
  });
  // The report as made from the current declarations (API Extractor writes it to the temp folder first).
  const report = join(tempFolder, `${entry.reportName}.api.md`);
  const text = existsSync(report) ? readFileSync(report, 'utf8') : '';
  for (const name of namesIn(text)) exported.add(name);
  return { entry, result, messages, forgotten, undocumented: undocumentedIn(text) };
}

/** The declarations a report marks "(undocumented)": the line after each mark. */
function undocumentedIn(text) {
  const lines = text.split('\n');
  return lines.flatMap((line, i) => (line.includes('(undocumented)') ? [lines[i + 1]?.trim() ?? ''] : []));
}

function main() {
  const tempFolder = mkdtempSync(join(tmpdir(), 'annot-api-report-'));
  let failed = false;
  try {
    // The names every entry point exports, gathered as the reports are made: the root comes first, so a
    // subpath's declarations may name its types (a type only a later subpath exports is reported).
    const exported = new Set();
    for (const entry of entryPoints()) {
      const { result, messages, forgotten, undocumented } = reportOne(entry, tempFolder, exported);
      const name = `api/${entry.reportName}.api.md`;
      for (const message of messages) console.error(`api-report: ${message}`);
      if (check && result.apiReportChanged) {
        console.error(`api-report: the exported API of ${entry.subpath} differs from ${name}: ${UPDATE_HINT}.`);
        failed = true;
      } else if (!check && result.apiReportChanged) {
        console.log(`api-report: ${name} updated`);
      }
      if (undocumented.length > 0) {
        console.error(`api-report: ${undocumented.length} exported declarations of ${entry.subpath} have no doc comment (marked "(undocumented)" in ${name}):`);
        for (const line of undocumented.slice(0, 40)) console.error(`  ${line}`);
        failed = true;
      }
      if (forgotten.length > 0) {
        console.error(`api-report: ${entry.subpath} names types that no entry point exports (export them, or stop naming them):`);
        for (const line of forgotten) console.error(`  ${line}`);
        failed = true;
      }
      if (messages.length > 0) failed = true;
    }
  } finally {
    rmSync(tempFolder, { recursive: true, force: true });
  }
  if (failed) process.exitCode = 1;
  else console.log(check ? 'api-report: every entry point matches its report' : 'api-report: reports are current');
}

main();
