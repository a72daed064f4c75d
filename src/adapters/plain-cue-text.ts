import type { Annotation } from '../model/annotation.js';
import { bodyText } from './flat-cues.js';
import { SRT_CUE_SCHEMA, SRT_CUE_SCHEMA_V1 } from './srt/cue-schema.js';
import { srtPlainText } from './srt/srt-markup.js';
import { WEBVTT_CUE_SCHEMA, WEBVTT_CUE_SCHEMA_V1 } from './webvtt/cue-body.js';
import { webVttPlainText, webVttVoice } from './webvtt/cue-text.js';
import { LABEL_STUDIO_REGION_SCHEMA } from './label-studio/region-schema.js';
import { labelStudioRegionText } from './label-studio/region-text.js';
import { OTIO_CLIP_SCHEMA, OTIO_MARKER_SCHEMA } from './otio/otio-model.js';
import { WEB_ANNOTATION_SCHEMA } from './web-annotation/annotation-schema.js';
import { webAnnotationText } from './web-annotation/annotation-text.js';

/**
 * The text a person reads in a body, for every writer: its `text` (else `label` or `value`, see
 * bodyText), except where a format keeps its own structure verbatim and the text inside it (a
 * Label Studio region's labels, a Web Annotation's textual body, an OTIO item's name), and in
 * SubRip and WebVTT cues of the first schema version, whose `text` held the markup as written.
 */
export function plainCueText(annotation: Annotation): string | null {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  switch (annotation.body_schema_uri) {
    case WEBVTT_CUE_SCHEMA_V1:
      return typeof body.text === 'string' ? webVttPlainText(body.text) : bodyText(body);
    case SRT_CUE_SCHEMA_V1:
      return typeof body.text === 'string' ? srtPlainText(body.text) : bodyText(body);
    case LABEL_STUDIO_REGION_SCHEMA:
      return labelStudioRegionText(body) ?? bodyText(body);
    case WEB_ANNOTATION_SCHEMA:
      return webAnnotationText(body) ?? bodyText(body);
    case OTIO_CLIP_SCHEMA:
    case OTIO_MARKER_SCHEMA:
      return typeof body.name === 'string' ? body.name : bodyText(body);
    default:
      return bodyText(body);
  }
}

/**
 * The markup as written that a SubRip or WebVTT cue keeps (`raw`, or a first-version body's
 * `text`), when it still says what the body's text (and a WebVTT cue's speaker) say; null when
 * there is none, or when the text or speaker was edited since the import: then the text wins.
 */
export function keptRaw(annotation: Annotation): string | null {
  const body = annotation.body as Readonly<Record<string, unknown>>;
  switch (annotation.body_schema_uri) {
    case SRT_CUE_SCHEMA:
      return typeof body.raw === 'string' && srtPlainText(body.raw) === body.text ? body.raw : null;
    case WEBVTT_CUE_SCHEMA:
      if (typeof body.raw !== 'string' || webVttPlainText(body.raw) !== body.text) return null;
      return webVttVoice(body.raw) === (typeof body.speaker === 'string' ? body.speaker : null) ? body.raw : null;
    case SRT_CUE_SCHEMA_V1:
    case WEBVTT_CUE_SCHEMA_V1:
      return typeof body.text === 'string' ? body.text : null;
    default:
      return null;
  }
}
