import { existsSync } from 'node:fs';
import { cliDir, jsonLines, LIGHTHOUSE, render } from './cli-env.js';

describe('annot render beat, shot, plan and models', () => {
  const t = cliDir();
  afterAll(t.cleanup);

  it('renders one beat and prints its result with durable asset fields', async () => {
    const result = await render(['beat', LIGHTHOUSE, 'b2', '--provider', 'local'], t.env);
    expect(result.code).toBe(0);
    const [beat] = jsonLines(result.stdout);
    expect(beat).toMatchObject({ beat_id: 'b2', speaker: 'Maren', cache_hit: false, audio_url: expect.stringMatching(/^file:\/\/.*\.wav$/) });
    expect(existsSync(String(beat.video_path))).toBe(true);
    const again = await render(['beat', LIGHTHOUSE, 'b2', '--provider', 'local'], t.env);
    expect(jsonLines(again.stdout)[0]).toMatchObject({ beat_id: 'b2', cache_hit: true, video_sha256: beat.video_sha256 });
  });

  it('prints the skipped result for a beat whose speaker is not a character', async () => {
    const result = await render(['beat', LIGHTHOUSE, 'b6'], t.env);
    expect(result.code).toBe(0);
    expect(jsonLines(result.stdout)).toEqual([{ beat_id: 'b6', skipped: 'no character', speaker: 'Harbourmaster', cache_hit: false }]);
  });

  it('renders one shot as a clip', async () => {
    const result = await render(['shot', LIGHTHOUSE, 's1', '--provider', 'local', '--as-video'], t.env);
    expect(result.code).toBe(0);
    const [shot] = jsonLines(result.stdout);
    expect(shot).toMatchObject({ shot_id: 's1', kind: 'video', still_sha256: expect.any(String), video_path: expect.stringMatching(/\.mp4$/) });
  });

  it('exits 1 naming the known ids when the unit does not exist', async () => {
    const result = await render(['shot', LIGHTHOUSE, 's9', '--provider', 'local'], t.env);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('no shot "s9"');
    expect(result.stderr).toContain('s1, s2, s3, s4');
  });

  it('plans a fal render without calling anything: cached units, models, and unknown prices shown as unknown', async () => {
    const result = await render(['plan', LIGHTHOUSE, '--provider', 'fal', '--json'], { ...t.env, FAL_QUEUE_URL: 'http://127.0.0.1:9' });
    expect(result.code).toBe(0);
    const plan = JSON.parse(result.stdout);
    expect(plan).toMatchObject({ title: 'The Last Keeper', provider: 'fal', to_render: 8, cached: 0, skipped: 3 });
    const b4 = plan.units.find((u: { id: string }) => u.id === 'b4');
    expect(b4.calls).toEqual([expect.objectContaining({ model_id: 'fal-ai/minimax/speech-02-hd', estimated_usd: null })]);
    expect(b4.estimated_usd).toBeNull();
    expect(plan.unknown_price_calls).toBeGreaterThan(0);
    const s1 = plan.units.find((u: { id: string }) => u.id === 's1');
    expect(s1.calls[0]).toMatchObject({ model_id: 'fal-ai/flux/dev', estimated_usd: expect.any(Number) });
    const text = await render(['plan', LIGHTHOUSE, '--provider', 'fal'], t.env);
    expect(text.stdout).toContain('b4: render — fal-ai/minimax/speech-02-hd unknown');
    expect(text.stdout).toMatch(/estimated cost: at least \$\d+\.\d{4} plus \d+ call\(s\) of unknown price/);
  });

  it('plans the units a local render already cached as cached', async () => {
    const result = await render(['plan', LIGHTHOUSE, '--provider', 'local', '--json'], t.env);
    const plan = JSON.parse(result.stdout);
    expect(plan.units.find((u: { id: string }) => u.id === 'b2').status).toBe('cached');
    expect(plan.units.find((u: { id: string }) => u.id === 'b1').status).toBe('render');
    expect(plan.known_usd).toBe(0);
  });

  it('lists the catalog, filtered by category, as a table or JSON lines', async () => {
    const table = await render(['models', '--category', 'image_to_video'], t.env);
    expect(table.code).toBe(0);
    expect(table.stdout.split('\n')[0]).toMatch(/^CATEGORY\s+TIER\s+MODEL\s+PRICE\s+ALIASES$/);
    expect(table.stdout).toContain('fal-ai/pixverse/v4.5/image-to-video');
    expect(table.stdout).toContain('unknown');
    const lines = jsonLines((await render(['models', '--json'], t.env)).stdout);
    expect(lines.find((m) => m.id === 'fal-ai/flux/dev')).toMatchObject({ category: 'image', tier: 'balanced' });
    const unknown = await render(['models', '--category', 'telepathy'], t.env);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('known categories');
  });
});
