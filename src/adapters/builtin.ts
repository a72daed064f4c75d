import { annotFormat } from './annot/format.js';
import { assFormat } from './ass/format.js';
import { eafFormat } from './eaf/format.js';
import { jamsFormat } from './jams/format.js';
import { labelStudioFormat } from './label-studio/format.js';
import { otioFormat } from './otio/format.js';
import { sbvFormat } from './sbv/format.js';
import { srtFormat } from './srt/format.js';
import { textgridFormat } from './textgrid/format.js';
import { ttmlFormat } from './ttml/format.js';
import { webAnnotationFormat } from './web-annotation/format.js';
import { webvttFormat } from './webvtt/format.js';

/**
 * The formats annot ships, in the order `list-formats` shows them. The registry (registry.ts)
 * registers them itself before its first lookup. Only the light descriptors are imported here;
 * each codec loads when a file of its format is read or written.
 */
export const BUILTIN_FORMATS = [
  textgridFormat,
  webvttFormat,
  srtFormat,
  assFormat,
  ttmlFormat,
  sbvFormat,
  webAnnotationFormat,
  annotFormat,
  eafFormat,
  jamsFormat,
  labelStudioFormat,
  otioFormat,
];
