import { readFileSync } from 'node:fs';
import type { Finding } from '../adapters/finding.js';
import { decodeSource } from '../adapters/source-text.js';
import type { SourceLocation } from '../adapters/errors.js';
import { editDistance } from '../text/nearest-name.js';

export const TIER_NAME_NEAR_DUPLICATE = 'tier_name_near_duplicate';

/** Names shorter than this (after folding) are too short to tell a typo from a naming scheme (`S1`, `S2`, `tx`, `ts`). */
const MIN_TYPO_LENGTH = 5;
/** A word this short that alone tells two names apart is a label (`speaker_a` / `speaker_b`), not a typo. */
const MAX_LABEL_LENGTH = 2;

/**
 * Two tiers in one file whose names look like one name mistyped: they differ only by case,
 * whitespace or punctuation (`Speaker A` / `speaker_a`), or, both at least five letters long, by
 * one edit (`phones` / `phomes`; `words` / `wrods` is two). Not a typo, as the corpus files show:
 * names that differ only in their numbers (`speaker1` / `speaker2`, `Sequence` / `Sequence 2`,
 * `words` / `words (2)`), and names that differ in one short label of their own
 * (`speaker_a` / `speaker_b`, `K-Spch` / `W-Spch`, `SpeakerA` / `SpeakerB`). A warning: the file
 * reads, but two of its tiers are probably meant to be one.
 *
 * `text` is the file's text, for the line of each tier's first quoted mention (null: no line).
 */
/**
 * tierNameFindings for a file read from `path` (null: a store, no text to point into), reading its
 * text for the lines only when there is something to report.
 */
export function tierNameFindingsOfFile(names: readonly string[], file: string, path: string | null, encoding?: string): Finding[] {
  const findings = tierNameFindings(names, file, null);
  if (findings.length === 0 || path === null) return findings;
  return tierNameFindings(names, file, sourceTextOrNull(path, file, encoding));
}

/** The file's text as its reader decoded it (its findings were reported then, so not again here). */
function sourceTextOrNull(path: string, file: string, encoding: string | undefined): string | null {
  try {
    return decodeSource(readFileSync(path), { sourceName: file, encoding, report: () => {} });
  } catch {
    return null;
  }
}

export function tierNameFindings(names: readonly string[], file: string, text: string | null): Finding[] {
  const findings: Finding[] = [];
  for (let i = 0; i < names.length; i++) {
    for (let j = i + 1; j < names.length; j++) {
      const why = nearDuplicate(names[i], names[j]);
      if (why === undefined) continue;
      findings.push({
        code: TIER_NAME_NEAR_DUPLICATE,
        severity: 'warning',
        file,
        location: text === null ? {} : firstQuoted(text, names[j]),
        message: `tiers ${JSON.stringify(names[i])} and ${JSON.stringify(names[j])} ${why}: a typo? (rename one if they are meant to be one tier)`,
      });
    }
  }
  return findings;
}

/** Why two tier names look like one, or undefined when they do not. */
export function nearDuplicate(a: string, b: string): string | undefined {
  if (a === b) return undefined;
  const foldedA = fold(a);
  const foldedB = fold(b);
  if (foldedA !== '' && foldedA === foldedB) return 'differ only by case, spaces or punctuation';
  if (foldedA.length < MIN_TYPO_LENGTH || foldedB.length < MIN_TYPO_LENGTH) return undefined;
  if (withoutNumbers(foldedA) === withoutNumbers(foldedB) || differInOneLabel(a, b)) return undefined;
  return editDistance(foldedA, foldedB) === 1 ? 'differ by one letter' : undefined;
}

/** Lower case, letters and digits only. */
function fold(name: string): string {
  return name.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

function withoutNumbers(name: string): string {
  return name.replace(/\p{N}+/gu, '');
}

/** Whether the names are the same words but one, and that one is a short label in both (`a` / `b`, `K` / `W`). */
function differInOneLabel(a: string, b: string): boolean {
  const wordsA = words(a);
  const wordsB = words(b);
  if (wordsA.length !== wordsB.length) return false;
  const differing = wordsA.flatMap((word, i) => (word === wordsB[i] ? [] : [i]));
  return differing.length === 1 && wordsA[differing[0]].length <= MAX_LABEL_LENGTH && wordsB[differing[0]].length <= MAX_LABEL_LENGTH;
}

/** Words split at spaces, punctuation and lower-to-upper case changes (`SpeakerA` → speaker, a). */
function words(name: string): string[] {
  return name.split(/[^\p{L}\p{N}]+|(?<=\p{Ll})(?=\p{Lu})/u).filter((word) => word !== '').map((word) => word.toLowerCase());
}

/** Line and column of the first `"name"` in the text (TextGrid `name = "…"`, EAF `TIER_ID="…"`, JSON), if any. */
function firstQuoted(text: string, name: string): SourceLocation {
  const at = text.indexOf(`"${name}"`);
  if (at < 0) return {};
  const before = text.slice(0, at);
  const line = before.split('\n').length;
  return { line, column: at - before.lastIndexOf('\n') };
}
