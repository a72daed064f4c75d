import fc from 'fast-check';
import { InvalidInputError } from '../../src/errors/annot-error.js';
import { annotationInterval, type Annotation } from '../../src/model/annotation.js';
import { validateBody } from '../../src/schemas/registry.js';
import { MappingStore } from '../../src/store/mapping.js';
import { MemoryStore } from '../../src/store/memory.js';
import type { AnnotationStore } from '../../src/store/store.js';
import {
  LINE_SCHEMA_URI,
  SECTION_SCHEMA_URI,
  SubtitleBuilder,
  SubtitleTrack,
  WORD_SCHEMA_URI,
  secondsToInterval,
  secondsToTime,
} from '../../src/tracks/subtitle.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { TimeInterval } from '../../src/time/time-interval.js';

const SONG = 'sha256:' + '5e'.repeat(32);
const OTHER = 'sha256:' + '07'.repeat(32);
const FIXED_NOW = () => new RationalTime(1_700_000_000_000, 1000);

function ms(start: number, end: number): TimeInterval {
  return new TimeInterval(new RationalTime(start, 1000), new RationalTime(end, 1000));
}

function intervalOf(annotation: Annotation): string {
  return (annotationInterval(annotation) as TimeInterval).toString();
}

async function song(store: AnnotationStore = new MemoryStore()) {
  const builder = new SubtitleBuilder(store, SONG, { now: FIXED_NOW });
  await builder.section('verse 1', 0, 10);
  await builder.section('chorus', 10, 20);
  const first = await builder.line('I came down to the river', 0.5, 3.25, {
    section: 'verse 1',
    lineIndex: 0,
    words: [['I', 0.5, 0.75, 0.99], ['came', 0.75, 1.2], ['down', 1.2, 1.6, 0.42]],
  });
  const second = await builder.line('to pray', 3.25, 5, { section: 'verse 1', lineIndex: 1, words: [['to', 3.25, 3.5], ['pray', 3.5, 5]] });
  const third = await builder.line('oh sing', 10.1, 12, { section: 'chorus', lineIndex: 2 });
  return { store, builder, first, second, third };
}

describe('SubtitleBuilder', () => {
  it('registers the sections, lines and words tiers on its first write', async () => {
    const store = new MemoryStore();
    await new SubtitleBuilder(store, SONG).section('intro', 0, 1);
    expect(await store.listTiers()).toEqual([
      { name: 'sections', stereotype: 'NONE', parent: null, metadata: {} },
      { name: 'lines', stereotype: 'INCLUDED_IN', parent: 'sections', metadata: {} },
      { name: 'words', stereotype: 'INCLUDED_IN', parent: 'lines', metadata: {} },
    ]);
  });

  it('leaves tiers that already exist as they are', async () => {
    const store = new MemoryStore();
    const sections = { name: 'sections', stereotype: 'NONE', parent: null, metadata: { source: 'manual' } } as const;
    await store.addTier(sections);
    await new SubtitleBuilder(store, SONG).section('intro', 0, 1);
    expect(await store.getTier('sections')).toEqual(sections);
  });

  it('writes sections as song-section/v1 bodies at the builder rate', async () => {
    const { store } = await song();
    const sections = await store.byTier('sections');
    expect(sections.map((s) => s.body)).toEqual([{ label: 'verse 1' }, { label: 'chorus' }]);
    expect(sections.every((s) => s.body_schema_uri === SECTION_SCHEMA_URI)).toBe(true);
    expect(annotationInterval(sections[1])?.start.isIdentical(new RationalTime(10000, 1000))).toBe(true);
  });

  it("writes the reference's section and line bodies: label, title, energy, mood and extra fields", async () => {
    const store = new MemoryStore();
    const builder = new SubtitleBuilder(store, SONG);
    const section = await builder.section('chorus', 0, 10, { title: 'Chorus 1', energy: 0.8, mood: 'bright', extra: { key: 'G' } });
    expect(section.body).toEqual({ label: 'chorus', title: 'Chorus 1', energy: 0.8, mood: 'bright', extra: { key: 'G' } });
    const { line } = await builder.line('la la', 0, 2, { section: 'chorus', lineIndex: 0, extra: { singer: 'lead' } });
    expect(line.body).toEqual({ text: 'la la', section: 'chorus', line_index: 0, extra: { singer: 'lead' } });
    expect(validateBody(SECTION_SCHEMA_URI, { label: 'verse', title: null, energy: 'high', mood: null, tempo_change: true }).valid).toBe(true);
    expect(validateBody(SECTION_SCHEMA_URI, { name: 'verse' }).valid).toBe(true);
    expect(validateBody(SECTION_SCHEMA_URI, { title: 'no label' }).valid).toBe(false);
    expect(validateBody(LINE_SCHEMA_URI, { text: 'x', line_index: 2, section: 'verse', extra: {}, singer: 'lead' }).valid).toBe(true);
    expect(validateBody(LINE_SCHEMA_URI, { line_index: 2 }).valid).toBe(false);
  });

  it('writes a line as lyric-line/v1 and its words as word/v1, with confidence on the annotation', async () => {
    const { first } = await song();
    expect(first.line.body).toEqual({ text: 'I came down to the river', section: 'verse 1', line_index: 0 });
    expect(first.line.body_schema_uri).toBe(LINE_SCHEMA_URI);
    expect(first.words.map((w) => w.body)).toEqual([{ text: 'I' }, { text: 'came' }, { text: 'down' }]);
    expect(first.words.map((w) => w.confidence)).toEqual([0.99, null, 0.42]);
    expect(first.words.every((w) => w.body_schema_uri === WORD_SCHEMA_URI && w.tier === 'words')).toBe(true);
    expect(first.words.map(intervalOf)).toEqual([ms(500, 750), ms(750, 1200), ms(1200, 1600)].map(String));
  });

  it('links each word to its line through provenance.was_derived_from', async () => {
    const { first, second } = await song();
    expect(first.words.every((w) => w.provenance.was_derived_from.join() === first.line.id)).toBe(true);
    expect(second.words.every((w) => w.provenance.was_derived_from.join() === second.line.id)).toBe(true);
    expect(first.line.provenance.was_derived_from).toEqual([]);
  });

  it('writes only bodies that validate against their schemas', async () => {
    const { store } = await song();
    for await (const annotation of store.all()) {
      expect(validateBody(annotation.body_schema_uri, annotation.body)).toMatchObject({ valid: true });
    }
  });

  it('leaves out section and line_index when the line has none', async () => {
    const store = new MemoryStore();
    const { line } = await new SubtitleBuilder(store, SONG).line('la la', 1, 2);
    expect(line.body).toEqual({ text: 'la la' });
  });

  it('stamps provenance from its options and every annotation with a MediaRef to the asset', async () => {
    const store = new MemoryStore();
    const builder = new SubtitleBuilder(store, SONG, { wasGeneratedBy: 'agent:aligner', wasAttributedTo: 'user:ana', now: FIXED_NOW });
    const section = await builder.section('outro', 60, 70);
    expect(section.provenance).toEqual({
      was_generated_by: 'agent:aligner',
      was_attributed_to: 'user:ana',
      was_derived_from: [],
      generated_at_time: FIXED_NOW(),
    });
    expect(section.reference).toMatchObject({ kind: 'media', asset_id: SONG });
    const byDefault = await new SubtitleBuilder(store, SONG).section('coda', 70, 71);
    expect(byDefault.provenance.was_generated_by).toBe('annot.tracks.subtitle');
    expect(byDefault.provenance.generated_at_time.v).toBeGreaterThan(0);
  });

  it('writes nothing of a line when one of its word tuples is malformed', async () => {
    const store = new MemoryStore();
    const builder = new SubtitleBuilder(store, SONG);
    const words = [['ok', 0, 1], ['bad', 1]] as unknown as [string, number, number][];
    await expect(builder.line('ok bad', 0, 2, { words })).rejects.toThrow(InvalidInputError);
    await expect(builder.line('ok bad', 0, 2, { words })).rejects.toThrow(/words\[1\]: expected \[text, start, end\]/);
    expect(await store.count()).toBe(0);
  });

  it('refuses a body its schema refuses, naming the field', async () => {
    const builder = new SubtitleBuilder(new MemoryStore(), SONG);
    await expect(builder.section('', 0, 1)).rejects.toThrow(InvalidInputError);
    await expect(builder.line('x', 0, 1, { lineIndex: -1 })).rejects.toThrow(/^line: /);
  });

  it('keeps a zero-length word as a point and refuses an end before its start', async () => {
    const builder = new SubtitleBuilder(new MemoryStore(), SONG);
    const word = await builder.word('uh', 2.5, 2.5);
    expect(annotationInterval(word)?.isPoint).toBe(true);
    await expect(builder.word('uh', 2.5, 2.4)).rejects.toThrow(/end 2.4 s precedes start 2.5 s/);
  });

  it('refuses a rate that is not a positive integer and times that are not finite', async () => {
    expect(() => new SubtitleBuilder(new MemoryStore(), SONG, { rate: 0 })).toThrow(InvalidInputError);
    expect(() => new SubtitleBuilder(new MemoryStore(), SONG, { rate: 2.5 })).toThrow(InvalidInputError);
    await expect(new SubtitleBuilder(new MemoryStore(), SONG).section('x', Number.NaN, 1)).rejects.toThrow(/section.start: expected a finite number/);
  });

  it('writes through any store, here a MappingStore', async () => {
    const map = new Map<string, unknown>();
    const { store } = await song(new MappingStore(map));
    expect(await store.count()).toBe(10);
    expect(map.size).toBe(11);
  });
});

describe('float seconds', () => {
  it('round through their shortest decimal spelling to the nearest tick, ties to even', () => {
    expect(secondsToTime(0.1, 1000).v).toBe(100);
    expect(secondsToTime(1.0005, 1000).v).toBe(1000);
    expect(secondsToTime(1.0015, 1000).v).toBe(1002);
    expect(secondsToTime(0.29, 100).v).toBe(29); // 0.29 × 100 is 28.999999999999996 as floats
    const third = secondsToInterval(1 / 3, 2 / 3, 48000); // "0.3333333333333333" s × 48000 rounds to 16000
    expect([third.start.v, third.end.v, third.end.r]).toEqual([16000, 32000, 48000]);
  });

  it('land within half a tick of the decimal value they spell', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 1e5, noNaN: true }), fc.constantFrom(1000, 44100, 48000, 24000), (seconds, rate) => {
        const time = secondsToTime(seconds, rate);
        expect(time.r).toBe(rate);
        expect(Math.abs(time.v - seconds * rate)).toBeLessThanOrEqual(0.5 + 1e-6 * Math.max(1, seconds * rate));
      }),
      { numRuns: 200 },
    );
  });
});

describe('SubtitleTrack', () => {
  it('returns the lines sharing time with a window, by start, leaving out lines that only touch it', async () => {
    const { store, first, second, third } = await song();
    const track = new SubtitleTrack(store, SONG);
    expect((await track.linesIn(3, 11)).map((l) => l.id)).toEqual([first.line.id, second.line.id, third.line.id]);
    expect((await track.linesIn(5, 10.1)).map((l) => l.id)).toEqual([]);
    expect((await track.linesIn(3.25, 3.3)).map((l) => l.id)).toEqual([second.line.id]);
  });

  it('returns the words overlapping a window, by start', async () => {
    const { store } = await song();
    const track = new SubtitleTrack(store, SONG);
    expect((await track.wordsIn(1, 3.4)).map((w) => w.body.text)).toEqual(['came', 'down', 'to']);
    expect(await track.wordsIn(20, 30)).toEqual([]);
  });

  it('finds the sections covering an instant: at its start yes, at its end no', async () => {
    const { store } = await song();
    const track = new SubtitleTrack(store, SONG);
    expect((await track.sectionsCovering(0)).map((s) => s.body.label)).toEqual(['verse 1']);
    expect((await track.sectionsCovering(9.9995)).map((s) => s.body.label)).toEqual(['chorus']); // rounds to 10 s
    expect((await track.sectionsCovering(10)).map((s) => s.body.label)).toEqual(['chorus']);
    expect(await track.sectionsCovering(20)).toEqual([]);
  });

  it('reads only its asset, or every asset when given null', async () => {
    const { store } = await song();
    await new SubtitleBuilder(store, OTHER).line('elsewhere', 1, 2);
    expect((await new SubtitleTrack(store, SONG).linesIn(1, 2)).map((l) => l.body.text)).toEqual(['I came down to the river']);
    expect((await new SubtitleTrack(store, OTHER).linesIn(0, 100)).map((l) => l.body.text)).toEqual(['elsewhere']);
    expect((await new SubtitleTrack(store, null).linesIn(1, 2)).map((l) => l.body.text)).toEqual(['I came down to the river', 'elsewhere']);
  });

  it('lists whole tiers by start and the words of one line', async () => {
    const { store, first } = await song();
    const track = new SubtitleTrack(store, SONG);
    expect((await track.allSections()).map((s) => s.body.label)).toEqual(['verse 1', 'chorus']);
    expect((await track.allLines()).map((l) => l.body.line_index)).toEqual([0, 1, 2]);
    expect((await track.allWords()).map((w) => w.body.text)).toEqual(['I', 'came', 'down', 'to', 'pray']);
    expect((await track.wordsOf(first.line)).map((w) => w.body.text)).toEqual(['I', 'came', 'down']);
  });
});
