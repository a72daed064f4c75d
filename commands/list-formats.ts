import { AnnotCommand } from '../src/cli/base-command.js';
import { writeLine } from '../src/cli/output.js';

export default class ListFormats extends AnnotCommand {
  static override description = 'List the annotation formats annot reads and writes, with their extensions and what each keeps';
  static override enableJsonFlag = true;
  static override examples = ['<%= config.bin %> list-formats', '<%= config.bin %> list-formats --json'];

  async run(): Promise<Array<{ name: string; aliases: string[]; extensions: string[]; media_types: string[]; body_schemas: string[]; description: string }>> {
    await this.parse(ListFormats);
    const [{ listFormats }, { aliasesOf }] = await Promise.all([import('../src/service/formats.js'), import('../src/adapters/registry.js')]);
    const formats = listFormats().map(({ name, ...rest }) => ({ name, aliases: aliasesOf(name), ...rest }));
    if (!this.jsonEnabled()) {
      const width = Math.max(...formats.map((f) => f.name.length));
      for (const format of formats) {
        const aliases = format.aliases.length > 0 ? `  (also: ${format.aliases.join(', ')})` : '';
        writeLine(`${format.name.padEnd(width)}  ${format.extensions.join(', ')}${aliases}`);
        writeLine(`${' '.repeat(width)}  ${format.description}`);
      }
    }
    return formats;
  }
}
