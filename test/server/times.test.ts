import { startTestServer, WORDS_TIER, type TestServer } from './http-client.js';

const word = (start: unknown, end: unknown) => ({
  tier: 'words',
  reference: { kind: 'media', asset_id: 'talk.wav', interval: { start, end } },
  body: { text: 'w' },
  body_schema_uri: 'annot://schema/word/v1',
});

describe('HTTP speaks the one time vocabulary', () => {
  let t: TestServer;
  beforeEach(async () => {
    t = await startTestServer();
    expect((await t.call('POST', '/tiers', { json: WORDS_TIER })).status).toBe(201);
  });
  afterEach(() => t.close());

  it.each([
    ['{v, r}', '', { v: 7800, r: 1000 }, { v: 8000, r: 1000 }, { v: 7800, r: 1000, s: '7.8' }],
    ['{v, r, s}', '', { v: 7800, r: 1000, s: '7.8' }, { v: 8000, r: 1000 }, { v: 7800, r: 1000, s: '7.8' }],
    ['seconds as a string', '', '7.8', '8', { v: 7800, r: 1000, s: '7.8' }],
    ['seconds as a number', '', 7.8, 8, { v: 7800, r: 1000, s: '7.8' }],
    ['a timecode', '', '00:00:07.800', '00:00:08,000', { v: 7800, r: 1000, s: '7.8' }],
    ['SMPTE with ?fps', '?fps=25', '00:00:07:20', '00:00:08:00', { v: 195, r: 25, s: '7.8' }],
    ['seconds at ?rate', '?rate=48000', '7.8', '8', { v: 374400, r: 48000, s: '7.8' }],
  ])('creates from a body with times as %s and answers with s', async (_form, query, start, end, expected) => {
    const created = await t.call('POST', `/annotations${query}`, { json: word(start, end) });
    expect(created.status).toBe(201);
    expect(created.json.reference.interval.start).toEqual(expected);
    expect(created.json.provenance.generated_at_time.s).toEqual(expect.any(String));
    const got = await t.call('GET', `/annotations/${created.json.id}`);
    expect(got.json.reference.interval.start).toEqual(expected);
    const [listed] = (await t.call('GET', '/annotations')).json;
    expect(listed).toEqual(got.json);
  });

  it('patches a reference given in timecodes', async () => {
    const created = await t.call('POST', '/annotations', { json: word('1', '2') });
    const patched = await t.call('PATCH', `/annotations/${created.json.id}?fps=24`, {
      json: { reference: { kind: 'media', asset_id: 'talk.wav', interval: { start: '00:00:01:12', end: '00:00:02:00' } } },
      headers: { 'if-match': created.headers.get('etag')! },
    });
    expect(patched.status).toBe(200);
    expect(patched.json.reference.interval).toEqual({ start: { v: 36, r: 24, s: '1.5' }, end: { v: 48, r: 24, s: '2' } });
  });

  it.each([
    ['seconds', 'start=7.8&end=7.9'],
    ['timecodes', 'start=00:00:07.800&end=00:00:07.900'],
    ['SMPTE with fps', 'start=00:00:07:20&end=00:00:07:22&fps=25'],
    ['ratios', 'start=39/5&end=79/10'],
  ])('queries with a window in %s', async (_form, window) => {
    await t.call('POST', '/annotations', { json: word('7.8', '8') });
    await t.call('POST', '/annotations', { json: word('9', '10') });
    const found = await t.call('GET', `/annotations?${window}`);
    expect(found.status).toBe(200);
    expect(found.json.map((a: { reference: { interval: { start: { s: string } } } }) => a.reference.interval.start.s)).toEqual(['7.8']);
  });

  it('refuses a time not exact at the rate, naming the value, and never rounds', async () => {
    const lossy = await t.call('POST', '/annotations?rate=3', { json: word('0.1', '1') });
    expect(lossy.status).toBe(400);
    expect(lossy.json.error.code).toBe('ANNOT_LOSSY_TIME');
    expect(lossy.json.error.message).toMatch(/reference\.interval\.start: "0\.1" \(0\.1 s\) is not a whole number of ticks at rate 3/);
    const window = await t.call('GET', '/annotations?start=00:00:00:01&end=1&fps=24&rate=1000');
    expect(window.status).toBe(400);
    expect(window.json.error.message).toMatch(/start: "00:00:00:01" \(1\/24 s\) is not a whole number of ticks at rate 1000/);
    const smpte = await t.call('GET', '/annotations?start=00:00:00:01&end=1');
    expect(smpte.status).toBe(400);
    expect(smpte.json.error.message).toMatch(/SMPTE timecode.*\?fps=/);
    const wrongS = await t.call('POST', '/annotations', { json: word({ v: 1, r: 1, s: '1.5' }, { v: 2, r: 1 }) });
    expect(wrongS.status).toBe(400);
    expect(wrongS.json.error.message).toMatch(/reference\.interval\.start\.s: "1\.5" disagrees with v\/r = 1\/1/);
  });

  it('documents s, fps and the time forms in /openapi.json', async () => {
    const doc = (await t.call('GET', '/openapi.json')).json;
    expect(doc.components.schemas.Time.properties.s.type).toBe('string');
    const list = doc.paths['/annotations'].get.parameters as Array<{ name: string; description: string }>;
    expect(list.map((p) => p.name)).toEqual(expect.arrayContaining(['start', 'end', 'fps', 'after']));
    expect(list.find((p) => p.name === 'start')!.description).toMatch(/timecode.*SMPTE/);
  });
});
