import { styledTime, type TextGridStyle } from './text-style.js';

/**
 * TextGrid text in Praat's long ("text file") or short ("short text file") format. Times are
 * written as the exact decimals the caller gives; labels escape `"` as `""` and keep line breaks.
 */

export interface WritableTier {
  readonly kind: 'IntervalTier' | 'TextTier';
  readonly name: string;
  readonly xmin: string;
  readonly xmax: string;
  readonly items: ReadonlyArray<{ start: string; end: string; text: string }>;
}

export type TextGridVariant = 'long' | 'short';

/** The file's text, laid out as `style` says (Praat's own layout: PRAAT_STYLE). */
export function writeTextGrid(xmin: string, xmax: string, tiers: readonly WritableTier[], style: TextGridStyle): string {
  return style.variant === 'short' ? writeShort(xmin, xmax, tiers) : writeLong(xmin, xmax, tiers, style);
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function writeLong(xmin: string, xmax: string, tiers: readonly WritableTier[], style: TextGridStyle): string {
  const end = style.trailingSpace ? ' ' : '';
  const at = (depth: number, text: string, ending = end): string => `${style.indent.repeat(depth)}${text}${ending}`;
  const bound = (time: string): string => styledTime(time, style.boundsAsFloat);
  const time = (value: string): string => styledTime(value, style.itemsAsFloat);
  const out: string[] = ['File type = "ooTextFile"', 'Object class = "TextGrid"', '', at(0, `xmin = ${bound(xmin)}`), at(0, `xmax = ${bound(xmax)}`)];
  // No tiers is `<exists>` and `size = 0`, as Praat writes it: Praat 6.3 crashes reading `tiers? <absent>`.
  out.push(at(0, 'tiers? <exists>'), at(0, `size = ${tiers.length}`), at(0, 'item []:'));
  const item = style.itemDepth;
  tiers.forEach((tier, t) => {
    out.push(at(1, `item [${t + 1}]:`, ''), at(2, `class = ${quote(tier.kind)}`), at(2, `name = ${quote(tier.name)}`), at(2, `xmin = ${bound(tier.xmin)}`), at(2, `xmax = ${bound(tier.xmax)}`));
    if (tier.kind === 'IntervalTier') {
      out.push(at(2, `intervals: size = ${tier.items.length}`));
      tier.items.forEach((each, k) => {
        out.push(at(item, `intervals [${k + 1}]:`, ''), at(item + 1, `xmin = ${time(each.start)}`), at(item + 1, `xmax = ${time(each.end)}`), at(item + 1, `text = ${quote(each.text)}`));
      });
    } else {
      out.push(at(2, `points: size = ${tier.items.length}`));
      tier.items.forEach((each, k) => {
        out.push(at(item, `points [${k + 1}]:`, ''), at(item + 1, `number = ${time(each.start)}`), at(item + 1, `mark = ${quote(each.text)}`));
      });
    }
  });
  return `${out.join('\n')}\n`;
}

function writeShort(xmin: string, xmax: string, tiers: readonly WritableTier[]): string {
  const out: string[] = ['File type = "ooTextFile"', 'Object class = "TextGrid"', '', xmin, xmax];
  out.push('<exists>', String(tiers.length));
  for (const tier of tiers) {
    out.push(quote(tier.kind), quote(tier.name), tier.xmin, tier.xmax, String(tier.items.length));
    for (const item of tier.items) {
      if (tier.kind === 'IntervalTier') out.push(item.start, item.end, quote(item.text));
      else out.push(item.start, quote(item.text));
    }
  }
  return `${out.join('\n')}\n`;
}
