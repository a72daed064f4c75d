import type { WebVttBlock } from './parser.js';

/**
 * What a WebVTT file says before its first cue: the text after `WEBVTT`, the header lines, and
 * the STYLE, REGION and NOTE blocks, in order. Kept as one JSON value in the store's metadata
 * under `webvtt.preamble`, so a file converted to `.annot` and back keeps its styles and regions.
 */
export const PREAMBLE_META_KEY = 'webvtt.preamble';

export interface WebVttPreamble {
  signature_text: string;
  header: string[];
  blocks: Array<{ kind: 'STYLE' | 'REGION' | 'NOTE'; text: string }>;
}

export function preambleOf(signatureText: string, header: readonly string[], blocks: readonly WebVttBlock[]): WebVttPreamble {
  return { signature_text: signatureText, header: [...header], blocks: blocks.map(({ kind, text }) => ({ kind, text })) };
}

/** The preamble kept in metadata, or null when absent or not in the expected shape. */
export function readPreamble(value: string | null): WebVttPreamble | null {
  if (value === null) return null;
  try {
    const parsed = JSON.parse(value) as Partial<WebVttPreamble>;
    if (typeof parsed.signature_text !== 'string' || !Array.isArray(parsed.header) || !Array.isArray(parsed.blocks)) return null;
    return parsed as WebVttPreamble;
  } catch {
    return null;
  }
}

/**
 * The preamble as WebVTT text, ending with the blank line that precedes the first cue. Unsafe
 * parts are left out. `separator` is the space or tab after `WEBVTT` (a file's layout keeps it;
 * a space by default, none when nothing follows). The signature line is read whole as the
 * signature, so only a line break or NUL makes its text unsafe (a `-->` there is no cue).
 */
export function writePreamble(preamble: WebVttPreamble | null, separator?: string): string {
  if (preamble === null) return 'WEBVTT\n\n';
  const signature = /[\r\n\0]/.test(preamble.signature_text) ? '' : preamble.signature_text;
  const between = separator === ' ' || separator === '\t' ? separator : signature.length > 0 ? ' ' : '';
  let text = `WEBVTT${between}${signature}\n`;
  for (const line of preamble.header) if (typeof line === 'string' && line.length > 0 && safeLine(line)) text += `${line}\n`;
  text += '\n';
  for (const block of preamble.blocks) {
    if (typeof block?.text !== 'string' || !isSafeBlock(block.text)) continue;
    if (block.kind === 'STYLE' || block.kind === 'REGION') text += block.text.length > 0 ? `${block.kind}\n${block.text}\n\n` : `${block.kind}\n\n`;
    else if (block.kind === 'NOTE' && block.text.startsWith('NOTE')) text += `${block.text}\n\n`;
  }
  return text;
}

function safeLine(line: string): boolean {
  return !line.includes('-->') && !/[\r\n\0]/.test(line);
}

/** A block body that re-reads as the same block: no `-->`, no blank line, no CR or NUL. */
export function isSafeBlock(text: string): boolean {
  return !text.includes('-->') && !/\n\n|^\n|\n$|[\r\0]/.test(text);
}
