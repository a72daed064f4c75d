import { createRequire } from 'node:module';
import type { chardet as Chardet } from 'jschardet';
import { canonicalEncoding } from './encoding-names.js';
import { strictDecoder } from './strict-decoder.js';

/**
 * The legacy encoding of a file that is not UTF-8 and has no byte-order mark, guessed by
 * jschardet (a port of Python's chardet 7, the detector pysubs2 users reach for), then checked:
 * a candidate is taken only if it decodes every byte of the sample.
 */
export interface LegacyGuess {
  /** Canonical name (see encoding-names.ts). */
  readonly encoding: string;
  /** The detector's confidence, 0 to 1 (its scale is low: a right answer often scores under 0.3). */
  readonly confidence: number;
  /** The next candidates that also decode the sample, best first (at most two). */
  readonly alternatives: ReadonlyArray<{ encoding: string; confidence: number }>;
  /** The detector had too little to go on (see LITTLE_EVIDENCE): this is windows-1252, the most common legacy encoding. */
  readonly fallback: boolean;
}

/**
 * A best confidence under this is noise: a few accented letters in a short file (three French
 * words score 0.015, for windows-1253). windows-1252 is then the better bet, as it is chardet's
 * own answer when nothing matches; real text scores higher (a Czech sentence 0.08, for windows-1250).
 */
const LITTLE_EVIDENCE = 0.03;

/** Bytes the detector is given at most (its own default, which its accuracy figures are measured at). */
const DETECTOR_BYTES = 200_000;
/** The start of the file always given to the detector: plain lines around the accented ones help it tell languages apart. */
const HEAD_BYTES = 64 * 1024;

/**
 * Encodings of the detector's "modern web" and "legacy ISO" eras: Windows code pages, ISO 8859,
 * KOI8, the CJK encodings. Mac, DOS and EBCDIC code pages are left out: they are rare in
 * subtitles and transcripts, and on short texts they win by chance over the right answer.
 */
const ERAS = 1 | 2;

/** chardet names that are not WHATWG labels, by the WHATWG encoding that reads them. */
const DETECTOR_NAMES: Readonly<Record<string, string>> = {
  cp932: 'shift_jis',
  shift_jis_2004: 'shift_jis',
  cp949: 'euc-kr',
  big5hkscs: 'big5',
  euc_jis_2004: 'euc-jp',
  cp874: 'windows-874',
  iso2022_jp_2: 'iso-2022-jp',
  iso2022_jp_2004: 'iso-2022-jp',
  iso2022_jp_ext: 'iso-2022-jp',
  'utf-16-le': 'utf-16le',
  'utf-16-be': 'utf-16be',
  'utf-32-le': 'utf-32le',
  'utf-32-be': 'utf-32be',
};

let detector: typeof Chardet | undefined;

/** The guess for a sample, or null when no candidate decodes it. `complete`: the sample is the whole file. */
export function guessLegacyEncoding(sample: Uint8Array, complete: boolean): LegacyGuess | null {
  // Loaded on first use: its model costs about 100 ms, paid only by files that are not UTF-8.
  detector ??= (createRequire(import.meta.url)('jschardet') as { chardet: typeof Chardet }).chardet;
  const results = detector.detectAll(detectorInput(sample), { encodingEra: ERAS, preferSuperset: true, compatNames: false, ignoreThreshold: true });
  const seen = new Set<string>();
  const candidates: Array<{ encoding: string; confidence: number }> = [];
  for (const result of results) {
    const encoding = result.encoding === null ? null : whatwgName(result.encoding);
    if (encoding === null || encoding === 'utf-8' || seen.has(encoding)) continue;
    // Three candidates are enough (one and two alternatives), with those that tie the third or the best: each check decodes the whole sample.
    if (candidates.length >= 3 && !tiesWith(result.confidence, candidates[candidates.length - 1].confidence) && !tiesWith(result.confidence, candidates[0].confidence)) break;
    seen.add(encoding);
    if (decodesWhole(sample, encoding, complete)) candidates.push({ encoding, confidence: result.confidence });
  }
  candidates.sort((a, b) => b.confidence - a.confidence);
  preferAmongTies(candidates);
  if (candidates.length === 0 || candidates[0].confidence < LITTLE_EVIDENCE) {
    const index = candidates.findIndex((candidate) => candidate.encoding === 'windows-1252');
    const fallback = index >= 0 ? candidates.splice(index, 1)[0] : decodesWhole(sample, 'windows-1252', complete) ? { encoding: 'windows-1252', confidence: 0 } : null;
    if (fallback !== null) return { ...fallback, alternatives: candidates.slice(0, 2), fallback: true };
  }
  if (candidates.length === 0) return null;
  const [best, ...rest] = candidates;
  return { ...best, alternatives: rest.slice(0, 2), fallback: false };
}

/**
 * What the detector reads: the start of the file, then the lines further on that hold non-ASCII
 * bytes (where the evidence is), up to its budget. A file whose first accented letter comes after
 * a hundred kilobytes of ASCII is still judged on its accented lines.
 */
function detectorInput(sample: Uint8Array): Uint8Array {
  if (sample.length <= DETECTOR_BYTES) return sample;
  const pieces: Uint8Array[] = [sample.subarray(0, HEAD_BYTES)];
  let size = HEAD_BYTES;
  let lineStart = HEAD_BYTES;
  let highByte = false;
  for (let at = HEAD_BYTES; at < sample.length && size < DETECTOR_BYTES; at++) {
    const byte = sample[at];
    if (byte >= 0x80) highByte = true;
    if (byte !== 0x0a) continue;
    if (highByte) {
      const line = sample.subarray(lineStart, Math.min(at + 1, lineStart + DETECTOR_BYTES - size));
      pieces.push(line);
      size += line.length;
    }
    lineStart = at + 1;
    highByte = false;
  }
  return Buffer.concat(pieces);
}

function whatwgName(detected: string): string | null {
  const name = detected.toLowerCase();
  return DETECTOR_NAMES[name] ?? canonicalEncoding(name);
}

/**
 * Candidates within TIE of the best are the detector's noise, not its judgement: a few accented
 * letters among much ASCII (an ASS file's headers) score ISO 8859-4 0.0657 and windows-1252 0.0647.
 * Among those, the one Windows tools wrote most is moved first (windows-1252, then the other Windows
 * code pages), keeping the detector's order otherwise.
 */
function preferAmongTies(candidates: Array<{ encoding: string; confidence: number }>): void {
  if (candidates.length < 2) return;
  const tied = candidates.filter((candidate) => tiesWith(candidate.confidence, candidates[0].confidence));
  const chosen = tied.reduce((best, candidate) => (preference(candidate.encoding) < preference(best.encoding) ? candidate : best));
  candidates.splice(candidates.indexOf(chosen), 1);
  candidates.unshift(chosen);
}

/**
 * How close to the best confidence, relatively, a candidate ties with it. An ASS file's French
 * line among its headers scores windows-1250 0.0574 and windows-1252 0.0510 (11% apart).
 */
const TIE = 0.15;

function tiesWith(confidence: number, best: number): boolean {
  return confidence >= best * (1 - TIE);
}

/** On a tie (texts whose letters read the same in several code pages), what Windows tools wrote: windows-1252 first. */
function preference(encoding: string): number {
  if (encoding === 'windows-1252') return 0;
  return encoding.startsWith('windows-') ? 1 : 2;
}

function decodesWhole(sample: Uint8Array, encoding: string, complete: boolean): boolean {
  try {
    strictDecoder(encoding).decode(sample, { stream: !complete });
    return true;
  } catch {
    return false;
  }
}
