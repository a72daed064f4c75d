import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { AnnotationService } from '../../src/service/annotation-service.js';
import { convertFile } from '../../src/service/convert-file.js';
import { exportFromService, importIntoService } from '../../src/service/import-export.js';
import { MemoryStore } from '../../src/store/memory.js';
import { tempDir } from '../support/sample-annot.js';
import { recordSpans, type SpanRecorder } from './span-recorder.js';

const VTT = 'WEBVTT\n\n00:00:00.000 --> 00:00:01.500\nHello there.\n\n00:00:01.500 --> 00:00:03.000\nGeneral greeting.\n';

describe('adapter load and dump spans', () => {
  const { dir, cleanup } = tempDir('annot-otel-');
  const vtt = join(dir, 'talk.vtt');
  let recorder: SpanRecorder;
  beforeAll(() => {
    writeFileSync(vtt, VTT);
  });
  afterAll(cleanup);
  beforeEach(() => {
    recorder = recordSpans();
  });
  afterEach(() => recorder.stop());

  it('records a WebVTT → .annot convert as "adapter.load webvtt" then "adapter.dump annot" with the count written', async () => {
    const report = await convertFile({ input: vtt, output: join(dir, 'talk.annot'), warn: () => {}, report: () => {} });
    expect(report.annotations).toBe(2);
    expect(recorder.one('adapter.load webvtt').attributes).toEqual({ 'annot.format': 'webvtt' });
    expect(recorder.one('adapter.dump annot').attributes).toEqual({ 'annot.format': 'annot', 'annot.annotation.count': 2 });
  });

  it('records a .annot → WebVTT convert as "adapter.load annot" then "adapter.dump webvtt"', async () => {
    const annot = join(dir, 'back.annot');
    await convertFile({ input: vtt, output: annot, warn: () => {}, report: () => {} });
    await convertFile({ input: annot, output: join(dir, 'back.vtt'), warn: () => {}, report: () => {} });
    expect(recorder.spans().map((span) => span.name)).toEqual(['adapter.load webvtt', 'adapter.dump annot', 'adapter.load annot', 'adapter.dump webvtt']);
    expect(recorder.one('adapter.dump webvtt').attributes).toEqual({ 'annot.format': 'webvtt', 'annot.annotation.count': 2 });
  });

  it('records an import and an export through the service, the import\'s writes as one store.apply span (one transaction)', async () => {
    const service = new AnnotationService(new MemoryStore());
    await importIntoService(service, { path: vtt, actor: 'user:test' });
    await exportFromService(service, 'webvtt', join(dir, 'export.vtt'));
    expect(recorder.spans().map((span) => span.name)).toEqual(['adapter.load webvtt', 'store.apply', 'adapter.dump webvtt']);
    expect(recorder.one('adapter.dump webvtt').attributes).toEqual({ 'annot.format': 'webvtt' });
  });
});
