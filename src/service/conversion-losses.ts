import type { DumpReport } from '../adapters/adapter.js';
import { COMMENT_EVENTS_DROPPED } from '../adapters/flat-cues.js';

/** The attributes every reader stamps on what it imports, by the names the writers report them under. */
export function stampedAttribute(what: string): 'provenance' | 'ids' | 'confidence' | null {
  if (/^provenance\b/.test(what)) return 'provenance';
  if (/^(annotation )?ids\b/.test(what)) return 'ids';
  if (/^confidence\b/.test(what)) return 'confidence';
  return null;
}

/** Losses of whole annotations (not of a part of them), by the names the writers report them under. */
const WHOLE_ANNOTATION_LOSSES = new Set(['symbolic annotations', 'annotations on other tiers', 'time-aligned annotations on symbolic tiers', 'references to annotations not in the store', COMMENT_EVENTS_DROPPED]);

export function wholeAnnotationsDropped(dropped: DumpReport['dropped']): number {
  return dropped.filter((entry) => WHOLE_ANNOTATION_LOSSES.has(entry.what)).reduce((sum, entry) => sum + entry.count, 0);
}
