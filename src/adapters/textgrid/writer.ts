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

export function writeTextGrid(xmin: string, xmax: string, tiers: readonly WritableTier[], variant: TextGridVariant): string {
  return variant === 'short' ? writeShort(xmin, xmax, tiers) : writeLong(xmin, xmax, tiers);
}

function quote(text: string): string {
  return `"${text.replaceAll('"', '""')}"`;
}

function writeLong(xmin: string, xmax: string, tiers: readonly WritableTier[]): string {
  const out: string[] = ['File type = "ooTextFile"', 'Object class = "TextGrid"', '', `xmin = ${xmin} `, `xmax = ${xmax} `];
  if (tiers.length === 0) {
    out.push('tiers? <absent> ');
    return `${out.join('\n')}\n`;
  }
  out.push('tiers? <exists> ', `size = ${tiers.length} `, 'item []: ');
  tiers.forEach((tier, t) => {
    out.push(`    item [${t + 1}]:`, `        class = ${quote(tier.kind)} `, `        name = ${quote(tier.name)} `, `        xmin = ${tier.xmin} `, `        xmax = ${tier.xmax} `);
    if (tier.kind === 'IntervalTier') {
      out.push(`        intervals: size = ${tier.items.length} `);
      tier.items.forEach((item, k) => {
        out.push(`        intervals [${k + 1}]:`, `            xmin = ${item.start} `, `            xmax = ${item.end} `, `            text = ${quote(item.text)} `);
      });
    } else {
      out.push(`        points: size = ${tier.items.length} `);
      tier.items.forEach((item, k) => {
        out.push(`        points [${k + 1}]:`, `            number = ${item.start} `, `            mark = ${quote(item.text)} `);
      });
    }
  });
  return `${out.join('\n')}\n`;
}

function writeShort(xmin: string, xmax: string, tiers: readonly WritableTier[]): string {
  const out: string[] = ['File type = "ooTextFile"', 'Object class = "TextGrid"', '', xmin, xmax];
  if (tiers.length === 0) {
    out.push('<absent>');
    return `${out.join('\n')}\n`;
  }
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
