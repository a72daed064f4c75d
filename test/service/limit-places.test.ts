import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { convertFile } from '../../src/service/convert-file.js';
import { overLimitFiles } from '../support/over-limit-files.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * A value past the model's limits is refused by what keeps it (a `.annot` file here; a database,
 * a served file and POST /import in test/cli/limits.test.ts), in a message that names the file and
 * the place in it: the line where the reader knows it, else the JSON path or XML element, as a
 * reader's own FormatParseError does. Every format that can carry such a value, and every kind of
 * value: bodies, tier names, asset ids, provenance, metadata.
 */
describe('a refusal past the limits names the file and the place in it', () => {
  const { dir, cleanup } = tempDir('annot-limit-places-');
  afterAll(cleanup);

  async function refusal(input: string, output: string): Promise<Error | null> {
    return convertFile({ input, output, warn: () => {}, report: () => {} }).then(
      () => null,
      (error: unknown) => error as Error,
    );
  }

  for (const file of overLimitFiles()) {
    it(`${file.title}: into a .annot, refused at its place in one line, and nothing written`, async () => {
      const path = join(dir, file.name);
      writeFileSync(path, file.content);
      const output = join(dir, `${file.name}.annot`);
      const error = await refusal(path, output);
      const expected = `${path}${file.refusal}`;
      expect(error?.message.slice(0, expected.length)).toBe(expected);
      expect(error?.message).not.toContain('\n');
      expect((error as Error & { code?: string }).code).toMatch(/^ANNOT_INVALID_(ANNOTATION|TIER|INPUT)$/);
      expect(existsSync(output)).toBe(false);
    });

    it(`${file.title}: into another format, ${file.refusedByConversion ? 'refused at the same place (its reader holds it to the limits)' : 'converted: nothing is kept'}`, async () => {
      const path = join(dir, `c-${file.name}`);
      writeFileSync(path, file.content);
      const error = await refusal(path, join(dir, `${file.name}.vtt`));
      if (!file.refusedByConversion) {
        expect(error).toBeNull();
        return;
      }
      const expected = `${path}${file.refusal}`;
      expect(error?.message.slice(0, expected.length)).toBe(expected);
    });
  }
});
