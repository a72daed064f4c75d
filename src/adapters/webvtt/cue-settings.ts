import { isAsciiWhitespace, splitOnSpaces } from './parser.js';

/**
 * What a cue's settings and a REGION block mean, by the W3C rules (section 6.2 "region settings
 * parsing" and 6.3 "parse the WebVTT cue settings"). The adapter keeps settings as written; this
 * is the interpretation a player applies, used to check the parser against the W3C test suite and
 * available to callers who want the positioned cue.
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

/** A cue's settings string, interpreted against the regions defined before the cue. */
export function interpretCueSettings(settings: string, regions: readonly WebVttRegion[] = []): WebVttCuePlacement {
  const cue: WebVttCuePlacement = {
    region: null,
    vertical: '',
    line: 'auto',
    lineAlign: 'start',
    snapToLines: true,
    position: 'auto',
    positionAlign: 'auto',
    size: 100,
    align: 'center',
  };
  for (const [name, value] of settingPairs(settings)) {
    switch (name) {
      case 'region': {
        let found: WebVttRegion | null = null;
        for (const region of regions) if (region.id === value) found = region;
        cue.region = found;
        break;
      }
      case 'vertical':
        if (value === 'rl') cue.vertical = 'rl';
        else if (value === 'lr') cue.vertical = 'lr';
        if (cue.vertical !== '') cue.region = null;
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
        if (size !== 100) cue.region = null;
        break;
      }
      case 'align':
        if (value === 'start' || value === 'center' || value === 'end' || value === 'left' || value === 'right') cue.align = value;
        break;
    }
  }
  return cue;
}

function applyLine(cue: WebVttCuePlacement, value: string): void {
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
  if (linealign === 'start' || linealign === 'center' || linealign === 'end') cue.lineAlign = linealign;
  else if (linealign !== null) return;
  cue.line = number;
  cue.snapToLines = !percent;
  cue.region = null;
}

function applyPosition(cue: WebVttCuePlacement, value: string): void {
  const comma = value.indexOf(',');
  const colpos = comma === -1 ? value : value.slice(0, comma);
  const colalign = comma === -1 ? null : value.slice(comma + 1);
  const number = parsePercentage(colpos);
  if (number === null) return;
  if (colalign === 'line-left' || colalign === 'center' || colalign === 'line-right') cue.positionAlign = colalign;
  else if (colalign !== null) return;
  cue.position = number;
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
