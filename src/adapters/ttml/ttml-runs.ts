import { plainRuns, type StyledRun } from '../styled-runs.js';
import type { MarkupNode } from './ttml-model.js';
import { normalizeSpace, spaceIn, type TextPiece } from './ttml-markup.js';

/**
 * The styled runs of a TTML paragraph: italic from `tts:fontStyle` (italic or oblique), bold from
 * `tts:fontWeight`, underline from `tts:textDecoration`, each from the attributes written on an
 * element or the styles it refers to (chained styles followed), inherited down the spans as TTML
 * styles inherit.
 */
export interface TtmlRunContext {
  /** The style attributes of each `<style>` of the head, chained styles resolved, by id. */
  readonly styles: ReadonlyMap<string, Readonly<Record<string, string>>>;
}

interface Flags {
  italic: boolean;
  bold: boolean;
  underline: boolean;
}

/** The run context of a document, from its kept head (TTML_HEAD_META); empty when there is none. */
export function ttmlRunContext(headJson: string | null): TtmlRunContext {
  const styles = new Map<string, Record<string, string>>();
  if (headJson === null) return { styles };
  let head: unknown;
  try {
    head = JSON.parse(headJson);
  } catch {
    return { styles };
  }
  const declared = new Map<string, { attributes: Record<string, string>; refs: string[] }>();
  const visit = (nodes: unknown): void => {
    if (!Array.isArray(nodes)) return;
    for (const node of nodes) {
      if (node === null || typeof node !== 'object') continue;
      const element = node as { name?: unknown; attributes?: Record<string, string>; children?: unknown };
      const attributes = element.attributes ?? {};
      if (element.name === 'style' && typeof attributes['xml:id'] === 'string') {
        declared.set(attributes['xml:id'], { attributes, refs: idrefs(attributes.style) });
      }
      visit(element.children);
    }
  };
  visit(head);
  for (const id of declared.keys()) styles.set(id, resolvedStyle(id, declared, new Set()));
  return { styles };
}

/** A style's attributes with those of the styles it refers to beneath them (its own win), loops cut. */
function resolvedStyle(id: string, declared: ReadonlyMap<string, { attributes: Record<string, string>; refs: string[] }>, trail: Set<string>): Record<string, string> {
  const style = declared.get(id);
  if (style === undefined || trail.has(id)) return {};
  trail.add(id);
  let merged: Record<string, string> = {};
  for (const ref of style.refs) merged = { ...merged, ...resolvedStyle(ref, declared, trail) };
  return { ...merged, ...style.attributes };
}

export function idrefs(value: string | undefined): string[] {
  return value === undefined ? [] : value.split(/\s+/).filter((ref) => ref.length > 0);
}

export function ttmlRuns(body: Readonly<Record<string, unknown>>, text: string, context: TtmlRunContext): StyledRun[] {
  const base = flagsOf({ italic: false, bold: false, underline: false }, typeof body.style === 'string' ? body.style : undefined, isStringRecord(body.styling) ? body.styling : {}, context);
  const markup = Array.isArray(body.markup) ? (body.markup as MarkupNode[]) : null;
  const preserve = body.preserve_space === true;
  const styled = base.italic || base.bold || base.underline;
  if (markup === null) return styled ? [{ text, ...base }] : plainRuns(text);
  const pieces: Array<TextPiece & Flags> = [];
  collectPieces(markup, base, preserve, context, pieces);
  const runs = normalizeSpace(pieces, false).map(({ text: piece, italic, bold, underline }) => ({ text: piece, italic, bold, underline }));
  // A text edited since the import no longer matches its markup: the text wins.
  let joined = '';
  for (const run of runs) joined += run.text;
  if (joined !== text) return styled ? [{ text, ...base }] : plainRuns(text);
  return runs;
}

function collectPieces(nodes: readonly MarkupNode[], flags: Flags, preserve: boolean, context: TtmlRunContext, pieces: Array<TextPiece & Flags>): void {
  for (const node of nodes) {
    if (typeof node === 'string') pieces.push({ text: node, hard: false, preserve, ...flags });
    else if (node.name === 'br') pieces.push({ text: '\n', hard: true, ...flags });
    else if (node.name === 'span') {
      const attributes = node.attributes ?? {};
      collectPieces(node.children ?? [], flagsOf(flags, attributes.style, attributes, context), spaceIn(attributes, preserve), context, pieces);
    }
  }
}

function flagsOf(inherited: Flags, styleRefs: string | undefined, attributes: Readonly<Record<string, string>>, context: TtmlRunContext): Flags {
  let merged: Record<string, string> = {};
  for (const ref of idrefs(styleRefs)) merged = { ...merged, ...(context.styles.get(ref) ?? {}) };
  merged = { ...merged, ...attributes };
  const flags = { ...inherited };
  const fontStyle = merged['tts:fontStyle'];
  if (fontStyle !== undefined) flags.italic = fontStyle === 'italic' || fontStyle === 'oblique';
  const fontWeight = merged['tts:fontWeight'];
  if (fontWeight !== undefined) flags.bold = fontWeight === 'bold';
  const decoration = merged['tts:textDecoration'];
  if (decoration !== undefined) {
    if (/\bnoUnderline\b|\bnone\b/.test(decoration)) flags.underline = false;
    else if (/\bunderline\b/.test(decoration)) flags.underline = true;
  }
  return flags;
}

function isStringRecord(value: unknown): value is Record<string, string> {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && Object.values(value).every((item) => typeof item === 'string');
}
