import { Flags } from '@oclif/core';
import { AnnotCommand } from '../../src/cli/base-command.js';
import { writeJsonLine, writeLine } from '../../src/cli/output.js';

export default class RenderModels extends AnnotCommand {
  static override description = 'List the model catalog: fal endpoint ids by category and quality tier, with aliases and list prices (unknown prices shown as unknown)';
  static override examples = ['<%= config.bin %> render models', '<%= config.bin %> render models --category image --json'];
  static override flags = {
    category: Flags.string({ description: 'only this category (tts, voice_clone, avatar, image, image_to_video, ...)' }),
    json: Flags.boolean({ description: 'one JSON line per model' }),
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(RenderModels);
    const { listModels, modelCategories } = await import('../../src/render/catalog.js');
    if (flags.category !== undefined && !modelCategories().includes(flags.category)) {
      const { UnknownModelCategoryError } = await import('../../src/render/errors.js');
      throw new UnknownModelCategoryError(flags.category, modelCategories());
    }
    const models = listModels({ category: flags.category });
    if (flags.json) {
      for (const m of models) await writeJsonLine(m);
      return;
    }
    const rows = models.map((m) => [
      m.category,
      m.tier,
      m.id,
      m.price ? `${m.price.amount} ${m.price.currency} ${m.price.kind.replace('_', ' ')} (${m.price.source})` : 'unknown',
      m.aliases.join(', '),
    ]);
    const header = ['CATEGORY', 'TIER', 'MODEL', 'PRICE', 'ALIASES'];
    const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
    for (const row of [header, ...rows]) writeLine(row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
  }
}
