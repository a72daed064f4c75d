import { isAsciiWhitespace, splitOnSpaces } from './parser.js';

/**
 * What a cue's settings and a REGION block mean, by the W3C rules (section 6.2 "region settings
 * parsing" and 6.3 "parse the WebVTT cue settings"): the settings a cue states (what the adapter
 * keeps as typed body fields), the placement a player derives from them, and both written back.
 */

export interface WebVttRegion {
  id: string;
  width: number;
  lines: number;
  regionAnchorX: number;
  regionAnchorY: number;
  viewportAnchorX: number;
  viewportAnchorY: number;
  scroll: '' | 'up';
}

export interface WebVttCuePlacement {
  region: WebVttRegion | null;
  vertical: '' | 'rl' | 'lr';
  line: number | 'auto';
  lineAlign: 'start' | 'center' | 'end';
  snapToLines: boolean;
  position: number | 'auto';
  positionAlign: 'auto' | 'line-left' | 'center' | 'line-right';
  size: number;
  align: 'start' | 'center' | 'end' | 'left' | 'right';
}

/** A REGION block's settings (its lines after the REGION line) as a region. */
export function parseRegionSettings(text: string): WebVttRegion {
  const region: WebVttRegion = { id: '', width: 100, lines: 3, regionAnchorX: 0, regionAnchorY: 100, viewportAnchorX: 0, viewportAnchorY: 100, scroll: '' };
  for (const [name, value] of settingPairs(text)) {
    switch (name) {
      case 'id':
        region.id = value;
        break;
      case 'width': {
        const width = parsePercentage(value);
        if (width !== null) region.width = width;
        break;
      }
      case 'lines':
        if (/^[0-9]+$/.test(value)) region.lines = Number(value);
        break;
      case 'regionanchor':
      case 'viewportanchor': {
        const comma = value.indexOf(',');
        if (comma === -1) break;
        const x = parsePercentage(value.slice(0, comma));
        const y = parsePercentage(value.slice(comma + 1));
        if (x === null || y === null) break;
        if (name === 'regionanchor') {
          region.regionAnchorX = x;
          region.regionAnchorY = y;
        } else {
          region.viewportAnchorX = x;
          region.viewportAnchorY = y;
        }
        break;
      }
      case 'scroll':
        if (value === 'up') region.scroll = 'up';
        break;
    }
  }
  return region;
}

/**
 * The settings a cue states, each valid one parsed by "parse the WebVTT cue settings" (6.3):
 * invalid values are dropped, a later duplicate wins, and the region is kept only when it names a
 * region defined before the cues and no later `vertical`, `line` or `size` other than 100% cleared
 * it (as the algorithm does, in order). Unlike the placement below, defaults are not filled in:
 * what the file did not say stays absent, so the settings can be written back as they were.
 */
export interface WebVttCueSettings {
  vertical?: 'rl' | 'lr';
  /** A line number (snapToLines true) or a percentage (snapToLines false). */
  line?: number;
  snapToLines?: boolean;
  /** Present only when the file wrote it (`line:10%,end`). */
  lineAlign?: 'start' | 'center' | 'end';
  /** A percentage. */
  position?: number;
  /** Present only when the file wrote it (`position:10%,line-left`). */
  positionAlign?: 'line-left' | 'center' | 'line-right';
  /** A percentage. */
  size?: number;
  align?: 'start' | 'center' | 'end' | 'left' | 'right';
  /** The id of the region the cue is in. */
  region?: string;
}

/** A cue's settings string as the settings it states; `hasRegion` says whether a region id is defined. */
export function parseCueSettings(settings: string, hasRegion: (id: string) => boolean): WebVttCueSettings {
  const cue: WebVttCueSettings = {};
  if (settings.length === 0) return cue;
  for (const [name, value] of settingPairs(settings)) {
    switch (name) {
      case 'region':
        if (hasRegion(value)) cue.region = value;
        else delete cue.region;
        break;
      case 'vertical':
        if (value === 'rl' || value === 'lr') cue.vertical = value;
        // "If cue's writing direction is not horizontal, let cue's region be null": also after an invalid value.
        if (cue.vertical !== undefined) delete cue.region;
        break;
      case 'line':
        applyLine(cue, value);
        break;
      case 'position':
        applyPosition(cue, value);
        break;
      case 'size': {
        const size = parsePercentage(value);
        if (size === null) break;
        cue.size = size;
        if (size !== 100) delete cue.region;
        break;
      }
      case 'align':
        if (value === 'start' || value === 'center' || value === 'end' || value === 'left' || value === 'right') cue.align = value;
        break;
    }
  }
  return cue;
}

/**
 * Settings as WebVTT text, in the order the specification lists them (vertical, line, position,
 * size, align, region). Parsing the result gives the same settings back.
 */
export function formatCueSettings(cue: WebVttCueSettings): string {
  const tokens: string[] = [];
  if (cue.vertical !== undefined) tokens.push(`vertical:${cue.vertical}`);
  if (cue.line !== undefined) {
    const value = cue.snapToLines === false ? `${decimal(cue.line)}%` : decimal(cue.line);
    tokens.push(cue.lineAlign !== undefined ? `line:${value},${cue.lineAlign}` : `line:${value}`);
  }
  if (cue.position !== undefined) tokens.push(cue.positionAlign !== undefined ? `position:${decimal(cue.position)}%,${cue.positionAlign}` : `position:${decimal(cue.position)}%`);
  if (cue.size !== undefined) tokens.push(`size:${decimal(cue.size)}%`);
  if (cue.align !== undefined) tokens.push(`align:${cue.align}`);
  if (cue.region !== undefined) tokens.push(`region:${cue.region}`);
  return tokens.join(' ');
}

/** Whether two parsed settings say the same. */
export function sameCueSettings(a: WebVttCueSettings, b: WebVttCueSettings): boolean {
  return (
    a.vertical === b.vertical &&
    a.line === b.line &&
    a.snapToLines === b.snapToLines &&
    a.lineAlign === b.lineAlign &&
    a.position === b.position &&
    a.positionAlign === b.positionAlign &&
    a.size === b.size &&
    a.align === b.align &&
    a.region === b.region
  );
}

/** A cue's settings string, interpreted against the regions defined before the cue, defaults filled in. */
export function interpretCueSettings(settings: string, regions: readonly WebVttRegion[] = []): WebVttCuePlacement {
  return placementOf(parseCueSettings(settings, (id) => regions.some((region) => region.id === id)), regions);
}

/** The placement a player uses for stated settings: the defaults for what is absent, the region resolved (the last one with the id). */
export function placementOf(cue: WebVttCueSettings, regions: readonly WebVttRegion[] = []): WebVttCuePlacement {
  let region: WebVttRegion | null = null;
  if (cue.region !== undefined) for (const candidate of regions) if (candidate.id === cue.region) region = candidate;
  return {
    region,
    vertical: cue.vertical ?? '',
    line: cue.line ?? 'auto',
    lineAlign: cue.lineAlign ?? 'start',
    snapToLines: cue.snapToLines ?? true,
    position: cue.position ?? 'auto',
    positionAlign: cue.positionAlign ?? 'auto',
    size: cue.size ?? 100,
    align: cue.align ?? 'center',
  };
}

function applyLine(cue: WebVttCueSettings, value: string): void {
  const comma = value.indexOf(',');
  const linepos = comma === -1 ? value : value.slice(0, comma);
  const linealign = comma === -1 ? null : value.slice(comma + 1);
  if (!/[0-9]/.test(linepos)) return;
  let number: number;
  const percent = linepos.endsWith('%');
  if (percent) {
    const parsed = parsePercentage(linepos);
    if (parsed === null) return;
    number = parsed;
  } else {
    if (!/^-?[0-9.]*$/.test(linepos)) return;
    const dots = linepos.split('.').length - 1;
    if (dots > 1) return;
    if (dots === 1) {
      const at = linepos.indexOf('.');
      if (at === 0 || at === linepos.length - 1 || !isDigit(linepos.charCodeAt(at - 1)) || !isDigit(linepos.charCodeAt(at + 1))) return;
    }
    const parsed = parseFloatingPoint(linepos);
    if (parsed === null) return;
    number = parsed;
  }
  if (linealign !== null && linealign !== 'start' && linealign !== 'center' && linealign !== 'end') return;
  // Without an alignment the one an earlier line setting gave stays, as in the algorithm.
  if (linealign !== null) cue.lineAlign = linealign;
  cue.line = number;
  cue.snapToLines = !percent;
  delete cue.region;
}

function applyPosition(cue: WebVttCueSettings, value: string): void {
  const comma = value.indexOf(',');
  const colpos = comma === -1 ? value : value.slice(0, comma);
  const colalign = comma === -1 ? null : value.slice(comma + 1);
  const number = parsePercentage(colpos);
  if (number === null) return;
  if (colalign !== null && colalign !== 'line-left' && colalign !== 'center' && colalign !== 'line-right') return;
  if (colalign !== null) cue.positionAlign = colalign;
  cue.position = number;
}

/** A region as the lines of a REGION block (what follows the REGION line). */
export function formatRegion(region: WebVttRegion): string {
  const lines = [`id:${region.id}`, `width:${decimal(region.width)}%`, `lines:${decimal(region.lines)}`];
  lines.push(`regionanchor:${decimal(region.regionAnchorX)}%,${decimal(region.regionAnchorY)}%`);
  lines.push(`viewportanchor:${decimal(region.viewportAnchorX)}%,${decimal(region.viewportAnchorY)}%`);
  if (region.scroll === 'up') lines.push('scroll:up');
  return lines.join('\n');
}

/** A number in plain decimal notation (WebVTT has no exponents): 1e+34 as 1000...0, 1e-7 as 0.0000001. */
export function decimal(value: number): string {
  const text = String(value);
  if (!/e/i.test(text)) return text;
  if (Number.isInteger(value)) return BigInt(value).toString();
  return value.toFixed(20).replace(/0+$/, '').replace(/\.$/, '');
}

/** Settings tokens with a colon that is neither their first nor their last character, split at it. */
function* settingPairs(text: string): Generator<[string, string]> {
  for (const token of splitOnSpaces(text)) {
    const colon = token.indexOf(':');
    if (colon <= 0 || colon === token.length - 1) continue;
    yield [token.slice(0, colon), token.slice(colon + 1)];
  }
}

/** "Parse a percentage string": digits, optionally `.digits`, then `%`, in [0, 100]. */
export function parsePercentage(text: string): number | null {
  if (!/^[0-9]+(?:\.[0-9]+)?%$/.test(text)) return null;
  const value = parseFloatingPoint(text.slice(0, -1));
  return value === null || value < 0 || value > 100 ? null : value;
}

/** The HTML rules for parsing floating-point number values, for the inputs the callers let through. */
function parseFloatingPoint(text: string): number | null {
  let start = 0;
  while (start < text.length && isAsciiWhitespace(text.charCodeAt(start))) start++;
  const match = /^-?(?:[0-9]+(?:\.[0-9]+)?|\.[0-9]+)/.exec(text.slice(start));
  if (!match) return null;
  const value = Number(match[0]);
  if (!Number.isFinite(value)) return null;
  return value === 0 ? 0 : value;
}

function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}
