import { parseSeconds, type Fraction } from '../../time/decimal.js';

/** Store metadata keys for a TextGrid's own bounds, as written. */
export const TEXTGRID_XMIN_META = 'textgrid.xmin';
export const TEXTGRID_XMAX_META = 'textgrid.xmax';

/** A bound as kept in metadata (`"12.5"`), or null when there is none or it does not read as seconds. */
export function readGridBound(text: string | null | undefined): Fraction | null {
  if (text === null || text === undefined) return null;
  try {
    return parseSeconds(text);
  } catch {
    return null;
  }
}
