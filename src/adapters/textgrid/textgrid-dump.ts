import { writeFile } from 'node:fs/promises';
import { InvalidInputError } from '../../errors/annot-error.js';
import type { AnnotationStore } from '../../store/store.js';
import type { DumpOptions, DumpReport } from '../adapter.js';
import { laidOutText, readLayout, TEXT_LAYOUT_META } from '../text-layout.js';
import { styleOfLayout } from './text-style.js';
import { collectStore, placeSymbolic } from './textgrid-write-collect.js';
import { layOut } from './textgrid-write-layout.js';
import { TextGridWriteState } from './textgrid-write-state.js';
import { writeTextGrid, type TextGridVariant } from './writer.js';

/**
 * Writes a TextGrid, long by default or short with `variant: 'short'`. Tiers keep store order
 * and their TextGrid names. A tier of points only becomes a TextTier; any other becomes an
 * IntervalTier whose gaps are filled with empty intervals (Praat requires a tier to be tiled), so
 * gaps come back as empty-label annotations. Points on an interval tier go to a TextTier of the
 * same name beside it, and overlapping intervals to further IntervalTiers of the same name:
 * nothing with a time is dropped. Lost: ids, provenance, confidence, body fields other than text,
 * tier stereotypes and parents, symbolic annotations.
 *
 * In passes over one state: collect (and place symbolic annotations) → lay out → emit.
 */
export async function dump(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const variant = options.variant as TextGridVariant | undefined;
  if (variant !== undefined && variant !== 'long' && variant !== 'short') {
    throw new InvalidInputError(`textgrid: unknown variant ${JSON.stringify(options.variant)}; use "long" (Praat's text file) or "short" (short text file)`);
  }
  // The layout a TextGrid read into this store had (long or short, indentation, number style), kept unless --variant says otherwise.
  const layout = readLayout(await store.getMeta(TEXT_LAYOUT_META), 'textgrid');
  const state = new TextGridWriteState();
  await collectStore(state, store);
  placeSymbolic(state);
  layOut(state);
  const text = writeTextGrid(state.decimal(state.gridMin), state.decimal(state.gridMax), state.written, styleOfLayout(layout, variant));
  await writeFile(path, laidOutText(text, layout), 'utf8');
  return { dropped: droppedOf(state) };
}

function droppedOf(state: TextGridWriteState): Array<{ what: string; count: number }> {
  const { counts } = state;
  const dropped: Array<{ what: string; count: number }> = [];
  const add = (what: string, count: number): void => {
    if (count > 0) dropped.push({ what, count });
  };
  add('provenance', counts.annotations);
  add('annotation ids', counts.annotations);
  add('confidence', counts.confidence);
  add('symbolic annotations whose parent annotation is missing', counts.symbolic);
  add('body fields other than the text (text, label or value)', counts.otherFields);
  add('bodies without a text (written as empty labels)', counts.noText);
  add('tier stereotypes and parents', state.storeTiers.filter((tier) => tier.stereotype !== 'NONE').length);
  add('points on interval tiers (written to a point tier of the same name)', counts.movedPoints);
  add('overlapping intervals (written to extra tiers of the same name)', counts.splitIntervals);
  add('points at the same time as another of their tier (written to extra point tiers of the same name)', counts.samePointTimes);
  add('times with no finite decimal (written as the nearest double)', counts.inexact);
  return dropped;
}
