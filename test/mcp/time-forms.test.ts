import { join } from 'node:path';
import { tempDir } from '../support/sample-annot.js';
import { annotMcpTransport, connectTools, type ToolClient } from './mcp-client.js';

type Time = { v: number; r: number; s: string };
type Wire = { id: string; body: { text: string }; reference: { interval: { start: Time; end: Time } }; provenance: { generated_at_time: Time } };

describe('MCP tools speak the one time vocabulary', () => {
  const { dir, cleanup } = tempDir('annot-mcp-times-');
  let tools: ToolClient;

  beforeAll(async () => {
    tools = await connectTools(annotMcpTransport(join(dir, 'times.annot')));
    await tools.ok('add_tier', { name: 'words' });
  });
  afterAll(async () => {
    await tools?.close();
    cleanup();
  });

  const add = (text: string, start: unknown, end: unknown, extra: Record<string, unknown> = {}) =>
    tools.ok<Wire>('add_annotation', { tier: 'words', asset_id: 'a.wav', start_seconds: start, end_seconds: end, body: { text }, ...extra });

  it.each([
    ['a number', 7.8, 8, { v: 7800, r: 1000, s: '7.8' }],
    ['a decimal string', '7.8', '8', { v: 7800, r: 1000, s: '7.8' }],
    ['a timecode', '00:00:07.800', '00:00:08,000', { v: 7800, r: 1000, s: '7.8' }],
    ['a short timecode', '00:07.8', '00:08.0', { v: 7800, r: 1000, s: '7.8' }],
    ['{v, r}', { v: 39, r: 5 }, { v: 40, r: 5 }, { v: 39, r: 5, s: '7.8' }],
  ])('takes %s and answers with s beside {v, r}', async (_form, start, end, expected) => {
    const { result } = await add('x', start, end);
    expect(result.reference.interval.start).toEqual(expected);
    expect(result.provenance.generated_at_time.s).toMatch(/^\d+(\.\d+)?$/);
  });

  it('takes SMPTE with fps', async () => {
    const { result } = await add('frames', '00:00:07:12', '00:00:08:00', { fps: 24 });
    expect(result.reference.interval).toEqual({ start: { v: 180, r: 24, s: '7.5' }, end: { v: 192, r: 24, s: '8' } });
  });

  it('queries with every form, and the answers carry s', async () => {
    for (const [start, end, extra] of [
      ['7.8', 7.9, {}], ['00:00:07.800', '00:00:07.900', {}], ['00:00:07:19', '00:00:07:21', { fps: 24 }], [{ v: 78, r: 10 }, { v: 79, r: 10 }, {}],
    ] as const) {
      const { result } = await tools.ok<{ annotations: Wire[] }>('query_annotations', { start, end, ...extra });
      expect(result.annotations.length).toBeGreaterThanOrEqual(5);
      for (const annotation of result.annotations) expect(annotation.reference.interval.start.s).toMatch(/^7\.[58]$/);
    }
  });

  it('gets and state_at carry s too', async () => {
    const { result: added } = await add('y', '1', '2');
    const { result: got } = await tools.ok<Wire>('get_annotation', { annotation_id: added.id });
    expect(got.reference.interval.end).toEqual({ v: 2000, r: 1000, s: '2' });
    const { result: clock } = await tools.ok<{ clock: number }>('latest_clock');
    const { result: state } = await tools.ok<{ annotations: Wire[] }>('state_at', { clock: clock.clock });
    expect(state.annotations.every((annotation) => annotation.reference.interval.start.s !== undefined)).toBe(true);
  });

  it('refuses, naming the argument and value: SMPTE without fps, a lossy time, a wrong s', async () => {
    const smpte = await tools.fails('add_annotation', { tier: 'words', asset_id: 'a.wav', start_seconds: '00:00:01:12', end_seconds: 2, body: { text: 'x' } });
    expect(smpte.message).toMatch(/start_seconds: "00:00:01:12" is an SMPTE timecode.*fps/);
    const lossy = await tools.fails('add_annotation', { tier: 'words', asset_id: 'a.wav', start_seconds: '00:00:00:01', end_seconds: 2, fps: 24, rate: 1000, body: { text: 'x' } });
    expect(lossy.message).toMatch(/start_seconds: "00:00:00:01" \(1\/24 s\) is not a whole number of ticks at rate 1000/);
    expect(lossy.code).toBe('ANNOT_LOSSY_TIME');
    const wrong = await tools.fails('add_annotation', { tier: 'words', asset_id: 'a.wav', start_seconds: { v: 1, r: 1, s: '2' }, end_seconds: 2, body: { text: 'x' } });
    expect(wrong.message).toMatch(/start_seconds\.s: "2" disagrees with v\/r = 1\/1/);
  });

  it('describes the forms and s in the tool schemas', async () => {
    const { tools: listed } = await tools.client.listTools();
    const addTool = listed.find((tool) => tool.name === 'add_annotation')!;
    const props = addTool.inputSchema.properties as Record<string, { description?: string }>;
    expect(props.start_seconds.description).toMatch(/timecode.*SMPTE.*\{v, r\}/);
    expect(props.fps.description).toMatch(/frames per second/);
    expect(JSON.stringify(addTool.outputSchema)).toMatch(/"s":\{[^}]*"type":"string"/);
  });
});

describe('MCP tool errors', () => {
  const { dir, cleanup } = tempDir('annot-mcp-errors-');
  let tools: ToolClient;
  beforeAll(async () => {
    tools = await connectTools(annotMcpTransport(join(dir, 'errors.annot')));
  });
  afterAll(async () => {
    await tools?.close();
    cleanup();
  });

  it('carry the code in structured content and name tools, not library methods', async () => {
    const failed = await tools.fails('add_annotation', { tier: 'nowhere', asset_id: 'a.wav', start_seconds: 0, end_seconds: 1, body: { text: 'x' } });
    expect(failed.code).toBe('ANNOT_UNKNOWN_TIER');
    expect(failed.message).toMatch(/add_tier/);
    expect(failed.message).not.toMatch(/addTier/);
    const missing = await tools.fails('get_annotation', { annotation_id: '00000000-0000-4000-8000-000000000009' });
    expect(missing.code).toBe('ANNOT_ANNOTATION_NOT_FOUND');
    const half = await tools.fails('query_annotations', { start: 1 });
    expect(half.code).toBe('ANNOT_INVALID_INPUT');
    expect(half.message).toMatch(/start and end must be given together/);
  });
});
