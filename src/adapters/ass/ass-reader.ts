import type { Annotation } from '../../model/annotation.js';
import { makeProvenance } from '../../model/provenance.js';
import { makeTier } from '../../model/tier.js';
import type { LoadedDocument, LoadOptions } from '../adapter.js';
import { CueFindings } from '../cue-findings.js';
import { ImportClock } from '../import-clock.js';
import { importProvenance } from '../import-provenance.js';
import { placedInFile } from '../refusal-place.js';
import { fileDecoder } from '../source-text.js';
import { textLineBatches } from '../text-lines.js';
import { EventAnnotations } from './ass-annotations.js';
import { DEFAULT_ASS_ASSET, DEFAULT_ASS_TIER, EVENT_FORMAT_META, SCRIPT_INFO_META, SECTIONS_META, STYLES_META } from './ass-model.js';
import { newReadState, type AssNotes, type AssReadState } from './ass-read-state.js';
import { readAssLine } from './ass-sections.js';
import { stylesOf } from './ass-styles.js';

/**
 * Loads a SubStation Alpha file (ASS or SSA) as a stream: the sections before `[Events]` are
 * read first (they become the document metadata), then the events are read chunk by chunk as
 * the annotations are consumed, like SRT, so a million-event file never sits in memory. Times are
 * exact at rate 100 (`--rate` converts them). Sections after `[Events]` cannot join metadata that
 * was already handed over: they are dropped with a warning (editors write them before it).
 */
export async function loadAss(path: string, options: LoadOptions): Promise<LoadedDocument> {
  const state = newReadState();
  const findings = new CueFindings(options.sourceName, options.report);
  const notes: AssNotes = {
    dropped: (line, message) => findings.dropped(line, message),
    note: (code, line, what, message) => findings.note(code, 'warning', line, what, message),
  };
  const file = options.sourceName;
  const batches = textLineBatches(path, fileDecoder(path, options));
  const pump = async (): Promise<boolean> => {
    const next = await batches.next();
    if (next.done) return false;
    for (const line of next.value) readAssLine(state, line, file, notes);
    return true;
  };
  // The metadata is whole once the events begin.
  while (state.eventsAt === null && (await pump()));

  const tier = options.tier ?? DEFAULT_ASS_TIER;
  const clock = new ImportClock(options.rate ?? 100, options.strictTime ?? false);
  const events = new EventAnnotations({
    tier,
    assetId: options.assetId ?? DEFAULT_ASS_ASSET,
    provenance: makeProvenance(importProvenance('ass', options)),
    rate: options.rate ?? null,
    clock,
    file,
    findings,
  });

  // The line of the event being converted: where a refusal of its annotation is named.
  let eventLine = 0;
  async function* annotations(): AsyncGenerator<Annotation> {
    try {
      do {
        for (let i = 0; i < state.events.length; i++) {
          eventLine = state.events[i].line;
          const annotation = events.convert(state.events[i]);
          if (annotation !== null) yield annotation;
        }
        state.events.length = 0;
      } while (await pump());
    } catch (error) {
      throw placedInFile(error, file, { line: eventLine });
    }
    for (const { name, line } of state.lateSections) {
      findings.note('section_dropped', 'warning', line, 'sections after [Events]', `section ${name} after [Events] not kept: annot keeps the sections that come before the events, where editors write them`);
    }
    findings.finish();
  }

  return {
    tiers: [makeTier({ name: tier })],
    meta: metaOf(state),
    annotations: annotations(),
    quantization: () => clock.quantization(),
    placeOfAnnotation: () => ({ line: eventLine }),
    placeOfMeta: (key) => ({ path: sectionOfMeta(state, key) }),
  };
}

/** The section a metadata entry was read from (sections keep no lines: they are named). */
function sectionOfMeta(state: AssReadState, key: string): string {
  if (key === SCRIPT_INFO_META) return '[Script Info]';
  if (key === STYLES_META) return state.styleSection ?? '[V4+ Styles]';
  if (key === EVENT_FORMAT_META) return '[Events] Format';
  return 'the sections before [Events]';
}

/** The document metadata: what the sections before the events said, each under its key (ass-model.ts). */
function metaOf(state: AssReadState): Record<string, string> {
  const meta: Record<string, string> = {};
  if (state.scriptInfo.length > 0) meta[SCRIPT_INFO_META] = JSON.stringify(state.scriptInfo);
  const styles = stylesOf(state);
  if (styles !== null) meta[STYLES_META] = JSON.stringify(styles);
  if (state.sections.length > 0) meta[SECTIONS_META] = JSON.stringify(state.sections);
  if (state.eventFormat !== null) meta[EVENT_FORMAT_META] = JSON.stringify(state.eventFormat);
  return meta;
}
