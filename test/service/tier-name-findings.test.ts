import { nearDuplicate, tierNameFindings } from '../../src/service/tier-name-findings.js';

describe('tier names that look like one name mistyped', () => {
  it.each([
    ['words', 'Words', 'differ only by case, spaces or punctuation'],
    ['Speaker A', 'speaker_a', 'differ only by case, spaces or punctuation'],
    ['S1', 's1', 'differ only by case, spaces or punctuation'],
    ['phones', 'phomes', 'differ by one letter'],
    ['gesture', 'gestures', 'differ by one letter'],
    ['transcription', 'transcripton', 'differ by one letter'],
  ])('%s / %s: %s', (a, b, why) => {
    expect(nearDuplicate(a, b)).toBe(why);
  });

  // Each pair is from a real file (fixtures/corpus, fixtures/textgrid) or a naming scheme like theirs.
  it.each([
    ['S1', 'S2', 'short'],
    ['word', 'words', 'short'],
    ['tx', 'ts', 'short'],
    ['speaker1', 'speaker2', 'a numbered series'],
    ['Sequence', 'Sequence 2', 'a numbered series'],
    ['words', 'words (2)', 'a numbered series'],
    ['speaker_a', 'speaker_b', 'a one-letter label'],
    ['K-Spch', 'W-Spch', 'a one-letter label'],
    ['SpeakerA', 'SpeakerB', 'a one-letter label'],
    ['words', 'wrods', 'two edits apart'],
    ['words', 'words', 'the same name'],
  ])('%s / %s: not a typo (%s)', (a, b) => {
    expect(nearDuplicate(a, b)).toBeUndefined();
  });

  it('gives each pair once, with the line and column of the second name where the text quotes it', () => {
    const text = 'name = "phones"\nname = "words"\nname = "phomes"\n';
    expect(tierNameFindings(['phones', 'words', 'phomes'], 'a.TextGrid', text)).toEqual([
      {
        code: 'tier_name_near_duplicate',
        severity: 'warning',
        file: 'a.TextGrid',
        location: { line: 3, column: 8 },
        message: 'tiers "phones" and "phomes" differ by one letter: a typo? (rename one if they are meant to be one tier)',
      },
    ]);
    expect(tierNameFindings(['phones', 'phomes'], 'a.annot', null)[0].location).toEqual({});
  });
});
