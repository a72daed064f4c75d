import { extname, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { mediaLink } from './media-link.js';
import type { SceneEdit } from './scene-edit.js';
import { spokenBeats } from './timeline-vtt.js';

const MIME_TYPES: Readonly<Record<string, string>> = { '.wav': 'audio/x-wav', '.mp3': 'audio/mpeg', '.mp4': 'video/mp4', '.mov': 'video/quicktime', '.ogg': 'audio/ogg', '.webm': 'video/webm' };

/**
 * The scene edit as an ELAN document: tiers `lines` (each spoken beat's line), `speakers` (who
 * says it, same times) and `shots` (each shot's prompt over its span), in milliseconds. The
 * HEADER links the animatic when there is one, else each beat's media (its talking video, else
 * its speech): MEDIA_URL is the absolute file:// URL ELAN requires, RELATIVE_MEDIA_URL is added
 * when the medium lies below the document's folder. DATE is left to the caller (it is the one
 * part that differs between two writes of the same edit).
 */
export function eafDocument(edit: SceneEdit, eafPath: string, date: string, animaticPath?: string): string {
  const beats = spokenBeats(edit);
  const media = animaticPath ? [animaticPath] : [...new Set(beats.flatMap((b) => [b.video?.path ?? b.audio?.path ?? []].flat()))];
  const slots: number[] = [];
  const slot = (ms: number) => {
    slots.push(ms);
    return `ts${slots.length}`;
  };
  let nextId = 0;
  const annotation = (startMs: number, endMs: number, text: string) =>
    `        <ANNOTATION>\n            <ALIGNABLE_ANNOTATION ANNOTATION_ID="a${++nextId}" TIME_SLOT_REF1="${slot(startMs)}" TIME_SLOT_REF2="${slot(endMs)}">\n                <ANNOTATION_VALUE>${esc(text)}</ANNOTATION_VALUE>\n            </ALIGNABLE_ANNOTATION>\n        </ANNOTATION>`;
  const ms = (v: number, r: number) => Math.round((v / r) * 1000);
  const tier = (id: string, items: string[]) => `    <TIER LINGUISTIC_TYPE_REF="default-lt" TIER_ID="${esc(id)}"${items.length === 0 ? '/>' : `>\n${items.join('\n')}\n    </TIER>`}`;
  const lines = beats.map((b) => annotation(ms(b.start.v, b.start.r), ms(b.start.v + b.duration.v, b.start.r), b.line));
  const speakers = beats.map((b) => annotation(ms(b.start.v, b.start.r), ms(b.start.v + b.duration.v, b.start.r), b.speaker));
  const shots = edit.shots.filter((s) => s.duration.v > 0).map((s) => annotation(ms(s.start.v, s.start.r), ms(s.start.v + s.duration.v, s.start.r), s.prompt || s.shot_id));
  const descriptors = media.map((path) => {
    const link = mediaLink(path, eafPath);
    const relative = link.startsWith('file:') ? '' : ` RELATIVE_MEDIA_URL="./${esc(link)}"`;
    return `        <MEDIA_DESCRIPTOR MEDIA_URL="${esc(pathToFileURL(resolve(path)).href)}" MIME_TYPE="${MIME_TYPES[extname(path).toLowerCase()] ?? 'unknown'}"${relative}/>`;
  });
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<ANNOTATION_DOCUMENT AUTHOR="annot render" DATE="${esc(date)}" FORMAT="3.0" VERSION="3.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:noNamespaceSchemaLocation="http://www.mpi.nl/tools/elan/EAFv3.0.xsd">`,
    '    <HEADER MEDIA_FILE="" TIME_UNITS="milliseconds">',
    ...descriptors,
    `        <PROPERTY NAME="lastUsedAnnotationId">${nextId}</PROPERTY>`,
    '    </HEADER>',
    '    <TIME_ORDER>',
    ...slots.map((value, index) => `        <TIME_SLOT TIME_SLOT_ID="ts${index + 1}" TIME_VALUE="${value}"/>`),
    '    </TIME_ORDER>',
    tier('lines', lines),
    tier('speakers', speakers),
    tier('shots', shots),
    '    <LINGUISTIC_TYPE GRAPHIC_REFERENCES="false" LINGUISTIC_TYPE_ID="default-lt" TIME_ALIGNABLE="true"/>',
    '</ANNOTATION_DOCUMENT>',
    '',
  ].join('\n');
}

function esc(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[c]!);
}
