import { createHash } from 'node:crypto';
import { drawText, wrapText, GLYPH_HEIGHT, GLYPH_WIDTH } from './bitmap-font.js';
import { blankImage, encodePng, fillRect, type Rgb } from './png.js';

export const CARD_WIDTH = 1024;
export const CARD_HEIGHT = 576;

const SCALE = 3;
const MARGIN = 40;
const LINE_HEIGHT = (GLYPH_HEIGHT + 3) * SCALE;

/**
 * How light a card is for a time of day: night scenes are dark, dusk and dawn in between, day
 * light; no time of day is a neutral middle.
 */
export function lightnessFor(timeOfDay: string): number {
  const t = timeOfDay.toLowerCase();
  if (!t) return 0.5;
  if (/night|midnight|late/.test(t)) return 0.22;
  if (/dusk|dawn|evening|sunset|sunrise|twilight|golden/.test(t)) return 0.4;
  return 0.66;
}

/** A colour for a place at a time: the hue from the place, the lightness from the time. */
export function cardColour(location: string, timeOfDay: string): Rgb {
  const digest = createHash('sha256').update(location).digest();
  const hue = digest.readUInt16BE(0) % 360;
  return hslToRgb(hue, location ? 0.45 : 0, lightnessFor(timeOfDay));
}

/**
 * A 1024×576 storyboard card: a flat colour, a frame, a heading and the text wrapped below it.
 * Pure pixels, encoded as PNG, so the same inputs give the same bytes everywhere.
 */
export function storyboardCard(options: { heading: string; paragraphs: string[]; background: Rgb }): Buffer {
  const image = blankImage(CARD_WIDTH, CARD_HEIGHT, options.background);
  const light = luminance(options.background) > 0.5;
  const ink: Rgb = light ? [24, 24, 28] : [240, 240, 236];
  const frame: Rgb = mix(options.background, ink, 0.35);
  const border = 12;
  fillRect(image, border, border, CARD_WIDTH - 2 * border, 3, frame);
  fillRect(image, border, CARD_HEIGHT - border - 3, CARD_WIDTH - 2 * border, 3, frame);
  fillRect(image, border, border, 3, CARD_HEIGHT - 2 * border, frame);
  fillRect(image, CARD_WIDTH - border - 3, border, 3, CARD_HEIGHT - 2 * border, frame);

  const columns = Math.floor((CARD_WIDTH - 2 * MARGIN) / ((GLYPH_WIDTH + 1) * SCALE));
  const maxLines = Math.floor((CARD_HEIGHT - 2 * MARGIN) / LINE_HEIGHT);
  const lines: string[] = [...wrapText(options.heading, columns), ''];
  for (const paragraph of options.paragraphs) lines.push(...wrapText(paragraph, columns));
  if (lines.length > maxLines) {
    lines.length = maxLines;
    lines[maxLines - 1] = `${lines[maxLines - 1].slice(0, columns - 3)}...`;
  }
  lines.forEach((line, i) => drawText(image, line, MARGIN, MARGIN + i * LINE_HEIGHT, SCALE, ink));
  return encodePng(image);
}

function hslToRgb(h: number, s: number, l: number): Rgb {
  const c = (1 - Math.abs(2 * l - 1)) * s;
  const x = c * (1 - Math.abs(((h / 60) % 2) - 1));
  const m = l - c / 2;
  const [r, g, b] = h < 60 ? [c, x, 0] : h < 120 ? [x, c, 0] : h < 180 ? [0, c, x] : h < 240 ? [0, x, c] : h < 300 ? [x, 0, c] : [c, 0, x];
  return [Math.round((r + m) * 255), Math.round((g + m) * 255), Math.round((b + m) * 255)];
}

function luminance([r, g, b]: Rgb): number {
  return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255;
}

function mix(a: Rgb, b: Rgb, t: number): Rgb {
  return [0, 1, 2].map((i) => Math.round(a[i] * (1 - t) + b[i] * t)) as Rgb;
}
