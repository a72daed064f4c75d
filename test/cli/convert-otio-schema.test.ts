import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../support/run-cli.js';
import { tempDir } from '../support/sample-annot.js';

const CLIP_EXAMPLE = fileURLToPath(new URL('../../fixtures/otio/otio_clip_example.otio', import.meta.url));

/**
 * What `convert` writes, `validate` accepts: an OTIO clip whose fields the otio-clip/v1 body cannot
 * hold (an object as active_media_reference_key, `metadata: true`) converts with a warning naming
 * the JSON path, its .annot file validates, and the fields come back as they were written.
 */
describe('annot convert of an OTIO file whose fields its body schema refuses', () => {
  const { dir, cleanup } = tempDir('annot-otio-schema-');
  afterAll(cleanup);
  const source = join(dir, 'odd.otio');
  const odd = JSON.parse(readFileSync(CLIP_EXAMPLE, 'utf8')) as { tracks: { children: Array<{ children: Array<Record<string, unknown>> }> } };
  const clip = odd.tracks.children[0].children[1];
  clip.active_media_reference_key = { key: 'DEFAULT_MEDIA' };
  clip.metadata = true;

  it('converts with a warning per field, the .annot file validates, and the fields come back verbatim', async () => {
    writeFileSync(source, JSON.stringify(odd, null, 4));
    const annot = join(dir, 'odd.annot');
    const convert = await runCli(['convert', source, annot]);
    expect(convert.code).toBe(0);
    expect(convert.stderr).toContain(`${source} ($.tracks.children[0].children[1].active_media_reference_key): warning: active_media_reference_key (an object: {"key":"DEFAULT_MEDIA"}) is not what otio-clip/v1 holds there`);
    expect(convert.stderr).toContain(`${source} ($.tracks.children[0].children[1].metadata): warning: metadata (boolean: true)`);
    expect(convert.stderr.match(/\[otio_field_kept_verbatim\]/g)).toHaveLength(2);
    const validate = await runCli(['validate', annot]);
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
    const back = join(dir, 'back.otio');
    expect((await runCli(['convert', annot, back])).code).toBe(0);
    const written = JSON.parse(readFileSync(back, 'utf8')) as typeof odd;
    expect(written.tracks.children[0].children[1]).toMatchObject({ name: 'Clip-001', active_media_reference_key: { key: 'DEFAULT_MEDIA' }, metadata: true });
  });

  it('refuses it under --strict and writes nothing', async () => {
    writeFileSync(source, JSON.stringify(odd, null, 4));
    const target = join(dir, 'strict.annot');
    const result = await runCli(['convert', source, target, '--strict']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[otio_field_kept_verbatim]');
    expect(existsSync(target)).toBe(false);
  });
});
