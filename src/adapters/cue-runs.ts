import type { Annotation } from '../model/annotation.js';
import { ASS_EVENT_SCHEMA, STYLES_META, type AssStyles } from './ass/ass-model.js';
import { assRuns, type AssStyleFlags } from './ass/ass-text.js';
import { styleFlags } from './ass/ass-styles.js';
import { bodyText } from './flat-cues.js';
import { SRT_CUE_SCHEMA, SRT_CUE_SCHEMA_V1 } from './srt/cue-schema.js';
import { srtRuns } from './srt/srt-markup.js';
import { keptRaw, plainCueText } from './plain-cue-text.js';
import { WEBVTT_CUE_SCHEMA, WEBVTT_CUE_SCHEMA_V1 } from './webvtt/cue-body.js';
import { webVttRuns } from './webvtt/cue-text.js';
import { PLAIN, plainRuns, taggedText, type StyledRun } from './styled-runs.js';
import { TTML_CUE_SCHEMA, TTML_HEAD_META } from './ttml/ttml-model.js';
import { ttmlRunContext, ttmlRuns, type TtmlRunContext } from './ttml/ttml-runs.js';

/**
 * The styled runs of any cue, by the format its body comes from, for a writer whose format
 * carries styling differently: SubStation events (override tags, and their style's own italic,
 * bold and underline), TTML paragraphs (spans and styles), SubRip and WebVTT tags (kept beside the
 * plain text as written). Bodies of other formats are plain text. What the runs need from the
 * document (styles) is read once per write.
 */
export interface CueRunContext {
  readonly assStyles: ReadonlyMap<string, AssStyleFlags>;
  readonly ttml: TtmlRunContext;
}

export async function cueRunContext(meta: (key: string) => Promise<string | null>): Promise<CueRunContext> {
  return { assStyles: styleFlags(parsedStyles(await meta(STYLES_META))), ttml: ttmlRunContext(await meta(TTML_HEAD_META)) };
}

/** Whether a body's styling lives beside its text (ASS, TTML, and SubRip and WebVTT markup), so that a cue writer needs its runs. */
export function styledBesideText(annotation: Annotation): boolean {
  switch (annotation.body_schema_uri) {
    case ASS_EVENT_SCHEMA:
    case TTML_CUE_SCHEMA:
    case SRT_CUE_SCHEMA_V1:
    case WEBVTT_CUE_SCHEMA_V1:
      return true;
    case SRT_CUE_SCHEMA:
    case WEBVTT_CUE_SCHEMA:
      return typeof (annotation.body as Readonly<Record<string, unknown>>).raw === 'string';
    default:
      return false;
  }
}

export function cueRuns(annotation: Annotation, context: CueRunContext): StyledRun[] {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  const text = bodyText(body) ?? '';
  switch (annotation.body_schema_uri) {
    case ASS_EVENT_SCHEMA: {
      const raw = typeof body.raw === 'string' ? body.raw : null;
      // libass reads "*Default" as "Default".
      const style = typeof body.style === 'string' ? (body.style.charCodeAt(0) === 42 ? body.style.replace(/^\*+/, '') : body.style) : null;
      const base = (style === null ? undefined : context.assStyles.get(style)) ?? PLAIN;
      // A text edited since the import no longer matches its raw form: the text wins, in the style's own flags.
      if (raw === null) return base === PLAIN ? plainRuns(text) : assRuns(text.replaceAll('\\', '\\\u2060').replaceAll('{', '\\{'), base, () => undefined);
      const runs = assRuns(raw, base, (name) => context.assStyles.get(name));
      return joined(runs) === text ? runs : plainRuns(text);
    }
    case TTML_CUE_SCHEMA:
      return ttmlRuns(body, text, context.ttml);
    case WEBVTT_CUE_SCHEMA: {
      const raw = keptRaw(annotation);
      return raw === null ? plainRuns(text) : webVttRuns(raw);
    }
    case SRT_CUE_SCHEMA: {
      const raw = keptRaw(annotation);
      return raw === null ? plainRuns(text) : srtRuns(raw);
    }
    case WEBVTT_CUE_SCHEMA_V1:
      return webVttRuns(text);
    case SRT_CUE_SCHEMA_V1:
      return srtRuns(text);
    default:
      return plainRuns(plainCueText(annotation) ?? '');
  }
}

/**
 * The cue's text with its italic, bold and underline as SubRip or WebVTT tags, each run's text
 * made by `escape` into what the format reads back as that text. The common event of a
 * SubStation file, plain text in a plain style, is its text.
 */
export function taggedCueText(annotation: Annotation, context: CueRunContext, escape: (text: string) => string): string {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  if (annotation.body_schema_uri === ASS_EVENT_SCHEMA && body.raw === undefined && typeof body.text === 'string' && !(typeof body.style === 'string' && body.style.startsWith('*'))) {
    const flags = typeof body.style === 'string' ? context.assStyles.get(body.style) : undefined;
    if (flags === undefined || (!flags.italic && !flags.bold && !flags.underline)) return escape(body.text);
  }
  return taggedText(cueRuns(annotation, context), escape);
}

function joined(runs: readonly StyledRun[]): string {
  let text = '';
  for (const run of runs) text += run.text;
  return text;
}

function parsedStyles(json: string | null): AssStyles | null {
  if (json === null) return null;
  try {
    const value = JSON.parse(json) as AssStyles;
    return value !== null && typeof value === 'object' && Array.isArray(value.styles) ? value : null;
  } catch {
    return null;
  }
}
