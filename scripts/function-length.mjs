#!/usr/bin/env node
/**
 * Function lengths in src/ and commands/, so the number is seen: prints the ten longest functions
 * and fails when a function is over MAX_LINES without being a known offender of the baseline
 * (scripts/function-length-baseline.txt), when a known offender grew past its recorded length,
 * or when a baseline entry is no longer over the limit (or its function is gone): the baseline
 * can only shrink.
 *
 * A function's length is the lines of its whole text, from its declaration (modifiers included,
 * leading comments not) to its closing brace. Function declarations, methods, constructors,
 * accessors, arrow functions and function expressions all count; a nested function counts on
 * its own, and its lines also count in the function around it.
 *
 * Usage: node scripts/function-length.mjs [--top N] [--write-baseline] [--root DIR] [--baseline FILE]
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const FOLDERS = ['src', 'commands'];
export const MAX_LINES = 100;

/** Every function of one source text: { name, line, lines } (name qualified by what encloses it). */
export function functionsOf(text, fileName) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const found = [];
  const visit = (node, scope) => {
    let inner = scope;
    if (isFunction(node)) {
      const name = [...scope, nameOf(node)].join('.');
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      found.push({ name, line: start + 1, lines: end - start + 1 });
      inner = [...scope, nameOf(node)];
    } else if (ts.isClassLike(node)) {
      inner = [...scope, node.name?.text ?? '<class>'];
    }
    ts.forEachChild(node, (child) => visit(child, inner));
  };
  visit(source, []);
  return disambiguated(found);
}

function isFunction(node) {
  return (
    ts.isFunctionDeclaration(node) ||
    ts.isMethodDeclaration(node) ||
    ts.isConstructorDeclaration(node) ||
    ts.isGetAccessorDeclaration(node) ||
    ts.isSetAccessorDeclaration(node) ||
    ts.isArrowFunction(node) ||
    ts.isFunctionExpression(node)
  );
}

/** A function's own name, or the name of what it is assigned to, or where it is passed. */
function nameOf(node) {
  if (ts.isConstructorDeclaration(node)) return 'constructor';
  if (node.name && (ts.isIdentifier(node.name) || ts.isStringLiteral(node.name) || ts.isPrivateIdentifier(node.name))) {
    const prefix = ts.isGetAccessorDeclaration(node) ? 'get ' : ts.isSetAccessorDeclaration(node) ? 'set ' : '';
    return prefix + node.name.text;
  }
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent)) && ts.isIdentifier(parent.name)) return parent.name.text;
  if (parent && ts.isCallExpression(parent)) {
    const callee = parent.expression;
    const called = ts.isPropertyAccessExpression(callee) ? callee.name.text : ts.isIdentifier(callee) ? callee.text : 'call';
    return `<callback of ${called}>`;
  }
  return '<anonymous>';
}

/** Names made unique within a file by a #2, #3... suffix, in file order. */
function disambiguated(found) {
  const seen = new Map();
  return found.map((entry) => {
    const count = (seen.get(entry.name) ?? 0) + 1;
    seen.set(entry.name, count);
    return count === 1 ? entry : { ...entry, name: `${entry.name}#${count}` };
  });
}

function sourceFiles(folder) {
  const out = [];
  for (const entry of readdirSync(folder, { withFileTypes: true })) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) out.push(path);
  }
  return out.sort();
}

/** The baseline: `file<TAB>function<TAB>lines` per line; `#` starts a comment. */
function readBaseline(path, root) {
  const entries = new Map();
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return entries;
  }
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const [file, name, lines] = line.split('\t');
    if (file === undefined || name === undefined || !/^\d+$/.test(lines ?? '')) throw new Error(`${relative(root, path)}: expected "file<TAB>function<TAB>lines", got ${JSON.stringify(raw)}`);
    entries.set(`${file}\t${name}`, Number(lines));
  }
  return entries;
}

function writeBaseline(path, over) {
  const header = [
    `# Functions over ${MAX_LINES} lines that predate scripts/function-length.mjs: file, function, lines (tab-separated).`,
    '# This list may only shrink: npm run lint fails on a new offender, on an offender that grew, and on an entry',
    '# that is no longer over the limit (remove it). Shortened but still over? Lower its number.',
  ];
  const rows = over.map((entry) => `${entry.file}\t${entry.name}\t${entry.lines}`).sort();
  writeFileSync(path, `${[...header, ...rows].join('\n')}\n`);
}

function option(argv, name, fallback) {
  const at = argv.indexOf(name);
  return at === -1 || argv[at + 1] === undefined ? fallback : argv[at + 1];
}

function main(argv) {
  const top = Number(option(argv, '--top', '10'));
  const ROOT = option(argv, '--root', new URL('..', import.meta.url).pathname);
  const BASELINE = option(argv, '--baseline', join(ROOT, 'scripts/function-length-baseline.txt'));
  const all = [];
  for (const folder of FOLDERS) {
    for (const path of existsSync(join(ROOT, folder)) ? sourceFiles(join(ROOT, folder)) : []) {
      const file = relative(ROOT, path);
      for (const entry of functionsOf(readFileSync(path, 'utf8'), file)) all.push({ file, ...entry });
    }
  }
  all.sort((a, b) => b.lines - a.lines || a.file.localeCompare(b.file) || a.line - b.line);
  const over = all.filter((entry) => entry.lines > MAX_LINES);
  if (argv.includes('--write-baseline')) {
    writeBaseline(BASELINE, over);
    console.log(`function-length: wrote ${over.length} entries to ${relative(ROOT, BASELINE)}`);
    return 0;
  }

  console.log(`function-length: the ${top} longest of ${all.length} functions in ${FOLDERS.join('/, ')}/ (limit ${MAX_LINES} lines)`);
  for (const entry of all.slice(0, top)) console.log(`  ${String(entry.lines).padStart(4)}  ${entry.file}:${entry.line}  ${entry.name}`);

  const baseline = readBaseline(BASELINE, ROOT);
  const problems = [];
  const notes = [];
  const current = new Map(all.map((entry) => [`${entry.file}\t${entry.name}`, entry]));
  for (const entry of over) {
    const known = baseline.get(`${entry.file}\t${entry.name}`);
    if (known === undefined) problems.push(`${entry.file}:${entry.line} ${entry.name} is ${entry.lines} lines (limit ${MAX_LINES}): split it into passes or smaller functions`);
    else if (entry.lines > known) problems.push(`${entry.file}:${entry.line} ${entry.name} grew to ${entry.lines} lines (baseline ${known}, limit ${MAX_LINES})`);
    else if (entry.lines < known) notes.push(`${entry.file}:${entry.line} ${entry.name} is down to ${entry.lines} lines: lower its baseline entry (${known})`);
  }
  for (const [key, known] of baseline) {
    const [file, name] = key.split('\t');
    const entry = current.get(key);
    if (entry === undefined) problems.push(`${file} ${name} (baseline ${known} lines) is gone: remove its line from ${relative(ROOT, BASELINE)}`);
    else if (entry.lines <= MAX_LINES) problems.push(`${file}:${entry.line} ${name} is ${entry.lines} lines now, within the limit: remove its line from ${relative(ROOT, BASELINE)}`);
  }
  console.log(`function-length: ${over.length} over ${MAX_LINES} lines, ${baseline.size} in the baseline`);
  for (const note of notes) console.log(`  note: ${note}`);
  for (const problem of problems) console.error(`  error: ${problem}`);
  return problems.length === 0 ? 0 : 1;
}

if (import.meta.url === `file://${process.argv[1]}`) process.exitCode = main(process.argv.slice(2));
