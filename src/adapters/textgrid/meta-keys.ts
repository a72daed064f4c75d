/** Store metadata keys for a TextGrid's own bounds, as written. */
export const TEXTGRID_XMIN_META = 'textgrid.xmin';
export const TEXTGRID_XMAX_META = 'textgrid.xmax';
