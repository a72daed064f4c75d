import { firstVoice, withoutWebVttMarkup, withVoice } from '../../src/adapters/webvtt/cue-markup.js';

describe('WebVTT cue text markup for other formats', () => {
  it('finds the speaker of the first voice span that names one', () => {
    expect(firstVoice('<v Roger Bingham>We are')).toBe('Roger Bingham');
    expect(firstVoice('<v.first.loud   Joe  &amp; Ann >hi</v>')).toBe('Joe & Ann');
    expect(firstVoice('<v>nameless</v> <v Mara>named')).toBe('Mara');
    expect(firstVoice('<vertical> no voice')).toBeNull();
    expect(firstVoice('plain')).toBeNull();
  });

  it('puts a speaker back as a voice span, escaped', () => {
    expect(withVoice('hello', 'A<B>&C')).toBe('<v A&lt;B&gt;&amp;C>hello');
    expect(firstVoice(withVoice('hello', 'A<B>&C'))).toBe('A<B>&C');
  });

  it('removes voice, class, language, ruby text and timestamp tags, keeps b, i, u without classes and other tags as written', () => {
    expect(withoutWebVttMarkup('<v.loud Joe>Hi</v> <c.red.big>there</c> <lang en-GB>colour</lang>')).toBe('Hi there colour');
    expect(withoutWebVttMarkup('<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>!')).toBe('漢字!');
    expect(withoutWebVttMarkup('<ruby>base<rt>unclosed</ruby> after')).toBe('base after');
    expect(withoutWebVttMarkup('a <00:00:01.000>b <01:02.500>c')).toBe('a b c');
    // Only valid timestamps: SubRip text can hold digit-led tags that are not WebVTT's (found by the fuzzer).
    expect(withoutWebVttMarkup('<99999999999999999999i>Hello</i>')).toBe('<99999999999999999999i>Hello</i>');
    expect(withoutWebVttMarkup('<i>Hello</03.000 --> 00:00:04,04>')).toBe('<i>Hello</03.000 --> 00:00:04,04>');
    expect(withoutWebVttMarkup('a<00:03.000 --> b>c')).toBe('a<00:03.000 --> b>c');
    expect(withoutWebVttMarkup('<b.x>bold</b> <i>it</i> <u.y.z>under</u>')).toBe('<b>bold</b> <i>it</i> <u>under</u>');
    expect(withoutWebVttMarkup('<font color="red">kept</font> &amp; 1 < 2')).toBe('<font color="red">kept</font> &amp; 1 < 2');
  });
});
