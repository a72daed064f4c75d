import { annotFormat } from './annot/format.js';
import { assFormat } from './ass/format.js';
import { eafFormat } from './eaf/format.js';
import { jamsFormat } from './jams/format.js';
import { labelStudioFormat } from './label-studio/format.js';
import { otioFormat } from './otio/format.js';
import { registerAdapter } from './registry.js';
import { sbvFormat } from './sbv/format.js';
import { srtFormat } from './srt/format.js';
import { textgridFormat } from './textgrid/format.js';
import { ttmlFormat } from './ttml/format.js';
import { webAnnotationFormat } from './web-annotation/format.js';
import { webvttFormat } from './webvtt/format.js';

/**
 * The formats annot ships, registered in the order `list-formats` shows them. Only the light
 * descriptors are imported here; each codec loads when a file of its format is read or written.
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

let registered = false;

export function registerBuiltinFormats(): void {
  if (registered) return;
  registered = true;
  for (const format of BUILTIN_FORMATS) registerAdapter(format);
}
