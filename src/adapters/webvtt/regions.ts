import { formatRegion, parseRegionSettings, type WebVttRegion } from './cue-settings.js';
import type { WebVttPreamble } from './preamble.js';

/**
 * The REGION blocks of a WebVTT file, parsed (W3C "region settings parsing") and kept as one JSON
 * array in the store's metadata under `webvtt.regions`, in file order:
 * `[{"id": "top", "width": 40, "lines": 3, "region_anchor": [0, 100], "viewport_anchor": [0, 100], "scroll": ""}]`.
 * Cues name their region by id (body `region`); with two regions of one id, the later one counts,
 * as in the algorithm.
 */
export const REGIONS_META_KEY = 'webvtt.regions';

export interface WireRegion {
  id: string;
  width: number;
  lines: number;
  region_anchor: [number, number];
  viewport_anchor: [number, number];
  scroll: '' | 'up';
}

export function regionsOfPreamble(blocks: ReadonlyArray<{ kind: string; text: string }>): WebVttRegion[] {
  return blocks.filter((block) => block.kind === 'REGION').map((block) => parseRegionSettings(block.text));
}

export function toWire(region: WebVttRegion): WireRegion {
  return {
    id: region.id,
    width: region.width,
    lines: region.lines,
    region_anchor: [region.regionAnchorX, region.regionAnchorY],
    viewport_anchor: [region.viewportAnchorX, region.viewportAnchorY],
    scroll: region.scroll,
  };
}

/** The regions kept in metadata, or null when absent; entries not in the expected shape are left out. */
export function readRegions(value: string | null): WebVttRegion[] | null {
  if (value === null) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const regions: WebVttRegion[] = [];
  for (const entry of parsed as Array<Partial<WireRegion>>) {
    if (typeof entry?.id !== 'string' || !isPercent(entry.width) || typeof entry.lines !== 'number' || !(entry.lines >= 0)) continue;
    if (!isAnchor(entry.region_anchor) || !isAnchor(entry.viewport_anchor)) continue;
    regions.push({
      id: entry.id,
      width: entry.width,
      lines: entry.lines,
      regionAnchorX: entry.region_anchor[0],
      regionAnchorY: entry.region_anchor[1],
      viewportAnchorX: entry.viewport_anchor[0],
      viewportAnchorY: entry.viewport_anchor[1],
      scroll: entry.scroll === 'up' ? 'up' : '',
    });
  }
  return regions;
}

/**
 * The preamble with its REGION blocks made to say `regions`: unchanged when its own blocks already
 * parse to them (a file read and written back), else its REGION blocks replaced by blocks written
 * from the regions, where the first one stood (or after the other blocks).
 */
export function withRegions(preamble: WebVttPreamble | null, regions: readonly WebVttRegion[] | null): WebVttPreamble | null {
  if (regions === null) return preamble;
  const blocks = preamble?.blocks ?? [];
  const written = regionsOfPreamble(blocks.filter((block) => typeof block?.text === 'string'));
  if (JSON.stringify(written) === JSON.stringify(regions)) return preamble;
  const generated = regions.filter((region) => isSafeId(region.id)).map((region) => ({ kind: 'REGION' as const, text: formatRegion(region) }));
  const first = blocks.findIndex((block) => block.kind === 'REGION');
  const others = blocks.filter((block) => block.kind !== 'REGION');
  const at = first === -1 ? others.length : blocks.slice(0, first).filter((block) => block.kind !== 'REGION').length;
  return {
    signature_text: preamble?.signature_text ?? '',
    header: preamble?.header ?? [],
    blocks: [...others.slice(0, at), ...generated, ...others.slice(at)],
  };
}

/** A region id that reads back as itself: no whitespace, no "-->". */
function isSafeId(id: string): boolean {
  return id.length > 0 && !/[\s]|-->/.test(id);
}

function isPercent(value: unknown): value is number {
  return typeof value === 'number' && value >= 0 && value <= 100;
}

function isAnchor(value: unknown): value is [number, number] {
  return Array.isArray(value) && value.length === 2 && isPercent(value[0]) && isPercent(value[1]);
}
