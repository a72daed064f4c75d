import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { drawableText, wrapText } from '../../src/render/local/bitmap-font.js';
import { ffmpegBinary } from '../../src/render/local/ffmpeg.js';
import { pngSize } from '../../src/render/local/png.js';
import { findOnPath } from '../../src/render/local/speech.js';
import { wavDuration } from '../../src/render/local/wav.js';
import { LocalProvider } from '../../src/render/providers/local.js';

/** What ffmpeg reads back from a file: its duration in seconds and its stream lines. */
function probe(path: string): { duration: number; streams: string[] } {
  let stderr = '';
  try {
    execFileSync(ffmpegBinary(), ['-hide_banner', '-i', path], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    stderr = String((error as { stderr: Buffer }).stderr);
  }
  const m = /Duration: (\d+):(\d+):(\d+\.\d+)/.exec(stderr);
  const duration = m ? Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]) : NaN;
  return { duration, streams: stderr.split('\n').filter((l) => l.includes('Stream #')) };
}

const fileOf = (url: string) => fileURLToPath(url);

describe('the local preview provider', () => {
  const dir = mkdtempSync(join(tmpdir(), 'annot-local-'));
  const provider = new LocalProvider({ dir, speech: 'placeholder' });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('speaks a placeholder track 0.4 s a word that ffmpeg reads back at that length', async () => {
    const [audio] = await provider.run('fal-ai/elevenlabs/tts/multilingual-v2', { text: 'Forty years I have kept this light.', voice: 'Dorothy' });
    expect(audio).toMatchObject({ kind: 'audio', content_type: 'audio/wav', duration_s: 2.8 });
    const bytes = readFileSync(fileOf(audio.url));
    expect(wavDuration(bytes)).toEqual({ frames: 2.8 * 16000, sampleRate: 16000 });
    expect(probe(fileOf(audio.url)).duration).toBeCloseTo(2.8, 2);
  });

  it('draws a 1024×576 PNG storyboard card of the prompt', async () => {
    const [still] = await provider.run('fal-ai/flux/dev', { prompt: 'close on Maren | framing: close-up | location: lantern room | time: dusk', image_size: 'landscape_16_9' });
    expect(still).toMatchObject({ kind: 'image', width: 1024, height: 576 });
    expect(pngSize(readFileSync(fileOf(still.url)))).toEqual({ width: 1024, height: 576 });
    expect(probe(fileOf(still.url)).streams.join()).toMatch(/Video: png, rgb24.*1024x576/);
  });

  it('makes a talking video as long as its speech, and a three-second clip from a still', async () => {
    const [audio] = await provider.run('tts', { text: 'It is. She is.' });
    const [video] = await provider.run('fal-ai/bytedance/omnihuman/v1.5', { image_url: 'https://example.com/faces/ivo.png', audio_url: audio.url, prompt: 'moved' });
    const talking = probe(fileOf(video.url));
    // AAC pads to whole 1024-sample frames: a few tens of milliseconds over the speech.
    expect(Math.abs(talking.duration - 1.6)).toBeLessThan(0.1);
    expect(talking.streams.some((s) => s.includes('Video: h264') && s.includes('1024x576'))).toBe(true);
    expect(talking.streams.some((s) => s.includes('Audio: aac'))).toBe(true);
    const [still] = await provider.run('image', { prompt: 'the sea' });
    const [clip] = await provider.run('fal-ai/minimax/hailuo-02/pro/image-to-video', { image_url: still.url, prompt: 'slow push-in' });
    expect(Math.abs(probe(fileOf(clip.url)).duration - 3)).toBeLessThan(0.1);
  });

  it('gives the same bytes for the same call, even when forced to make it again', async () => {
    const args = { text: 'Gale warning. All vessels seek shelter.', voice: 'Wise_Woman' };
    const [first] = await provider.run('tts', args);
    const [video] = await provider.run('avatar', { image_url: 'https://example.com/faces/radio.png', audio_url: first.url, prompt: 'static' });
    const before = [readFileSync(fileOf(first.url)), readFileSync(fileOf(video.url))];
    const [again] = await provider.run('tts', args, { force: true });
    const [videoAgain] = await provider.run('avatar', { image_url: 'https://example.com/faces/radio.png', audio_url: again.url, prompt: 'static' }, { force: true });
    expect(readFileSync(fileOf(again.url)).equals(before[0])).toBe(true);
    expect(readFileSync(fileOf(videoAgain.url)).equals(before[1])).toBe(true);
  });

  it('names itself after its speech engine, so a placeholder is never served as real speech', () => {
    expect(provider.name).toBe('local');
    expect(new LocalProvider({ dir, speech: 'espeak-ng' }).name).toBe('local+espeak-ng');
  });

  it('refuses to read remote assets offline', async () => {
    await expect(provider.fetchAsset('https://example.com/a.png')).rejects.toMatchObject({ code: 'ANNOT_LOCAL_ASSET_UNREACHABLE' });
  });

  it('cancels a render when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(provider.run('tts', { text: 'never' }, { signal: controller.signal })).rejects.toMatchObject({ code: 'ANNOT_RENDER_ABORTED' });
  });

  const espeak = findOnPath('espeak-ng');
  (espeak ? it : it.skip)('speaks through espeak-ng when it is installed', async () => {
    const real = new LocalProvider({ dir, speech: 'espeak-ng' });
    const [audio] = await real.run('tts', { text: 'They told me you would not leave the tower.', voice: 'Ivo' });
    const seconds = probe(fileOf(audio.url)).duration;
    expect(seconds).toBeGreaterThan(1);
    expect(seconds).toBeLessThan(6);
  });

  it('wraps card text without losing or reordering words', () => {
    fc.assert(
      fc.property(fc.array(fc.stringMatching(/^[a-z]{1,12}$/), { maxLength: 30 }), fc.integer({ min: 12, max: 60 }), (words, width) => {
        const lines = wrapText(words.join(' '), width);
        expect(lines.every((l) => l.length <= width)).toBe(true);
        expect(lines.join(' ').split(' ').filter(Boolean)).toEqual(words);
      }),
    );
  });

  it('draws every character, folding what the font lacks', () => {
    expect(drawableText('Café «Ω» ok')).toBe('CAFE ??? OK');
  });
});
