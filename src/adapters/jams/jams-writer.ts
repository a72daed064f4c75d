import { writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import type { Annotation } from '../../model/annotation.js';
import type { Tier } from '../../model/tier.js';
import type { AnnotationStore } from '../../store/store.js';
import { parseSeconds } from '../../time/decimal.js';
import type { RationalTime } from '../../time/rational-time.js';
import type { DumpOptions, DumpReport } from '../adapter.js';
import { UnrepresentableError } from '../errors.js';
import { bodyTextKey } from '../flat-cues.js';
import { namespaceOfTier, sandboxOfTier } from './jams-namespace.js';
import { JAMS_META, JAMS_OBSERVATION_SCHEMA } from './jams-reader.js';
import { parseJsonText, restoreNonFinite, stringifyWithNonFinite } from '../json-text.js';
import { plainCueText } from '../plain-cue-text.js';

/** What the reader kept in a tier's metadata `jams`. */
interface TierJams {
  namespace?: string;
  position?: number;
  annotation?: Record<string, unknown>;
  dense?: boolean;
  non_finite?: Record<string, string>;
}

/**
 * Writes a store as JAMS: one JAMS annotation per tier (in the file's original order when the
 * tiers came from JAMS), observations from the tier's interval annotations in store order. Gzip
 * when the target ends in `.jamz`. JAMS has no ids and no provenance, and no place for
 * annotations without an interval: those are reported as dropped. A tier from another format
 * is written in a namespace of the JAMS schemata, its name in the sandbox (jams-namespace.ts);
 * a time before 0, which JAMS cannot hold, is refused.
 */
export async function writeJams(store: AnnotationStore, path: string, options: DumpOptions): Promise<DumpReport> {
  const tiers = await store.listTiers();
  const byTier = new Map<string, Annotation[]>(tiers.map((tier) => [tier.name, []]));
  let symbolic = 0;
  let total = 0;
  let otherBodies = 0;
  let noText = 0;
  let inexact = 0;
  let otherAssets = 0;
  let firstAsset: string | undefined;
  let maxEnd = 0;
  for await (const annotation of store.all()) {
    if (annotation.reference.kind !== 'media') {
      symbolic++;
      continue;
    }
    total++;
    firstAsset ??= annotation.reference.asset_id;
    if (annotation.reference.asset_id !== firstAsset) otherAssets++;
    maxEnd = Math.max(maxEnd, annotation.reference.interval.end.toSeconds());
    let list = byTier.get(annotation.tier);
    if (!list) byTier.set(annotation.tier, (list = []));
    list.push(annotation);
  }

  const ordered = [...tiers].sort((a, b) => positionOf(a) - positionOf(b));
  const annotations = ordered
    .filter((tier) => jamsOf(tier) !== null || (byTier.get(tier.name)?.length ?? 0) > 0)
    .map((tier) => {
      const jams = jamsOf(tier) ?? {};
      const members = byTier.get(tier.name) ?? [];
      const observations = members.map((annotation) => {
        const body = annotation.body as Record<string, unknown>;
        if (annotation.body_schema_uri !== JAMS_OBSERVATION_SCHEMA && Object.keys(body).some((key) => key !== bodyTextKey(body))) otherBodies++;
        const interval = (annotation.reference as { interval: { start: RationalTime; end: RationalTime } }).interval;
        if (interval.start.v < 0) throw new UnrepresentableError(`jams: an annotation of tier ${JSON.stringify(annotation.tier)} starts at ${interval.start.toSecondsString()} s; JAMS times cannot be negative, so it cannot hold it`);
        const time = secondsNumber(interval.start);
        const duration = secondsNumber(interval.end.minus(interval.start));
        if (!time.exact || !duration.exact) inexact++;
        if (annotation.body_schema_uri !== JAMS_OBSERVATION_SCHEMA && plainCueText(annotation) === null) noText++;
        return { time: time.value, duration: duration.value, ...valueAndConfidence(annotation) };
      });
      const header = restoreNonFinite(jams.annotation ?? defaultHeader(tier, members), '', jams.non_finite) as Record<string, unknown>;
      const data = jams.dense ? denseColumns(observations) : observations;
      return { ...header, namespace: jams.namespace ?? (header.namespace as string), data };
    });

  const meta = await store.listMeta();
  const fileMetadata = meta[JAMS_META.fileMetadata]
    ? parseJsonText(meta[JAMS_META.fileMetadata], `store meta ${JAMS_META.fileMetadata}`, { nonFinite: true })
    : { title: '', artist: '', release: '', duration: maxEnd > 0 ? maxEnd : 1, identifiers: {}, jams_version: '0.3.4' };
  const sandbox = meta[JAMS_META.sandbox] ? parseJsonText(meta[JAMS_META.sandbox], `store meta ${JAMS_META.sandbox}`, { nonFinite: true }) : {};
  const extra = meta[JAMS_META.extra] ? (parseJsonText(meta[JAMS_META.extra], `store meta ${JAMS_META.extra}`, { nonFinite: true }) as object) : {};
  const text = stringifyWithNonFinite({ ...extra, annotations, file_metadata: fileMetadata, sandbox }, 2) + '\n';
  await writeFile(path, path.toLowerCase().endsWith('.jamz') ? gzipSync(Buffer.from(text, 'utf8')) : text);

  if (otherAssets > 0) options.warn(`jams holds one media file per document: ${otherAssets} annotations on other assets than ${firstAsset} were written into it`);
  const dropped = [
    { what: 'ids', count: total },
    { what: 'provenance', count: total },
    { what: 'symbolic annotations', count: symbolic },
    { what: 'body fields other than a JAMS value', count: otherBodies },
    { what: 'bodies without a text (written as empty values)', count: noText },
    { what: 'exact times (written as the nearest float)', count: inexact },
    { what: 'asset ids', count: otherAssets },
  ];
  return { dropped: dropped.filter((entry) => entry.count > 0) };
}

function jamsOf(tier: Tier): TierJams | null {
  const jams = tier.metadata.jams;
  return typeof jams === 'object' && jams !== null && !Array.isArray(jams) ? (jams as TierJams) : null;
}

function positionOf(tier: Tier): number {
  const position = jamsOf(tier)?.position;
  return typeof position === 'number' ? position : Number.MAX_SAFE_INTEGER;
}

/** The JAMS annotation fields for a tier that did not come from JAMS: a namespace of the schemata, the tier's name in the sandbox. */
function defaultHeader(tier: Tier, members: readonly Annotation[]): Record<string, unknown> {
  const annotator = members[0]?.provenance.was_attributed_to;
  return {
    namespace: namespaceOfTier(members),
    annotation_metadata: {
      curator: { name: '', email: '' },
      annotator: annotator ? { name: annotator } : {},
      version: '',
      corpus: '',
      annotation_tools: '',
      annotation_rules: '',
      validation: '',
      data_source: '',
    },
    sandbox: sandboxOfTier(tier.name),
    time: 0,
    duration: null,
  };
}

/** Seconds as a JSON number, and whether that number reads back as exactly the same time. */
function secondsNumber(time: RationalTime): { value: number; exact: boolean } {
  const value = time.toSeconds();
  const { num, den } = time.toFraction();
  const back = parseSeconds(value);
  return { value, exact: back.num === num && back.den === den };
}

/** An observation's value and confidence: a JAMS one's as read; any other annotation's text ('' when it has none), the string its namespace takes. */
function valueAndConfidence(annotation: Annotation): { value: unknown; confidence: unknown } {
  const body = annotation.body as Record<string, unknown>;
  if (annotation.body_schema_uri !== JAMS_OBSERVATION_SCHEMA) return { value: plainCueText(annotation) ?? '', confidence: annotation.confidence };
  const recorded = body.non_finite as Record<string, string> | undefined;
  const value = restoreNonFinite(body.value ?? null, '/value', recorded);
  const confidence = annotation.confidence ?? (body.confidence === undefined ? null : restoreNonFinite(body.confidence, '/confidence', recorded));
  return { value, confidence };
}

function denseColumns(observations: ReadonlyArray<{ time: number; duration: number; value: unknown; confidence: unknown }>): Record<string, unknown[]> {
  return {
    time: observations.map((o) => o.time),
    duration: observations.map((o) => o.duration),
    value: observations.map((o) => o.value),
    confidence: observations.map((o) => o.confidence),
  };
}
