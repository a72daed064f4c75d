import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  escapeWebVttText,
  hasWebVttOnlyMarkup,
  voiceTag,
  webVttPayloadOf,
  webVttPlainText,
  webVttRuns,
  webVttVoice,
} from '../../src/adapters/webvtt/cue-text.js';

const wpt = join(import.meta.dirname, '..', '..', 'fixtures', 'corpus', 'webvtt', 'wpt-cue-text-parsing');

describe('WebVTT cue text: the plain text a person reads', () => {
  it('leaves tags out and decodes HTML character references, legacy names too', () => {
    expect(webVttPlainText('Tom &amp; Jerry: 1 &lt; 2 &gt; 0')).toBe('Tom & Jerry: 1 < 2 > 0');
    expect(webVttPlainText('<v.loud Joe>Hi</v> <c.red.big>there</c> <lang en-GB>colour</lang>')).toBe('Hi there colour');
    expect(webVttPlainText('&not &notit; &ClockwiseContourIntegral; &#x41;&#66; &1; &;')).toBe('¬ ¬it; ∲ AB &1; &;');
    expect(webVttPlainText('a <00:00:01.000>b <01:02.500>c')).toBe('a b c');
  });

  it('reads every < as a tag, as browsers do: "1 < 2 > 0" is "1  0" in WebVTT', () => {
    expect(webVttPlainText('1 < 2 > 0')).toBe('1  0');
    expect(webVttPlainText('unclosed <b')).toBe('unclosed ');
  });

  it('leaves ruby text out and keeps the base', () => {
    expect(webVttPlainText('<ruby>漢<rt>kan</rt>字<rt>ji</rt></ruby>!')).toBe('漢字!');
    expect(webVttPlainText('<ruby>base<rt>unclosed</ruby> after')).toBe('base after');
  });

  it('gives the styled runs of b, i and u, with or without classes', () => {
    expect(webVttRuns('<b.x>bold</b> <i>it</i> &amp; <u.y.z>under</u>')).toEqual([
      { text: 'bold', italic: false, bold: true, underline: false },
      { text: ' ', italic: false, bold: false, underline: false },
      { text: 'it', italic: true, bold: false, underline: false },
      { text: ' & ', italic: false, bold: false, underline: false },
      { text: 'under', italic: false, bold: false, underline: true },
    ]);
  });

  it('finds the speaker of the first voice span that names one', () => {
    expect(webVttVoice('<v Roger Bingham>We are')).toBe('Roger Bingham');
    expect(webVttVoice('<v.first.loud   Joe  &amp; Ann >hi</v>')).toBe('Joe & Ann');
    expect(webVttVoice('<v>nameless</v> <v Mara>named')).toBe('Mara');
    expect(webVttVoice('<vertical> no voice')).toBeNull();
    expect(webVttVoice('plain')).toBeNull();
  });

  it('writes text and speaker as a payload that reads back the same', () => {
    expect(escapeWebVttText('Tom & Jerry: 1 < 2 > 0 -->')).toBe('Tom &amp; Jerry: 1 &lt; 2 &gt; 0 --&gt;');
    expect(voiceTag('A<B>&C\nD & E')).toBe('<v A<B&gt;&amp;C D & E>');
    for (const [text, speaker] of [['„Wie geht\'s?“ <lacht>', null], ['&amp; is written &amp;amp;', 'Ann & Bob'], ['<v Not a voice>', 'x>y']] as const) {
      const payload = webVttPayloadOf(text, speaker);
      expect(webVttPlainText(payload)).toBe(text);
      expect(webVttVoice(payload)).toBe(speaker);
    }
  });

  it('says which payloads hold markup that SubRip cannot say', () => {
    expect(hasWebVttOnlyMarkup('<v Joe><b>hi</b> &amp;')).toBe(false);
    expect(hasWebVttOnlyMarkup('<c.yellow>hi</c>')).toBe(true);
    expect(hasWebVttOnlyMarkup('a <00:01.000>b')).toBe(true);
    expect(hasWebVttOnlyMarkup(null)).toBe(false);
  });

  // The web-platform-tests cue text parsing suite: each cue with the DOM tree browsers build.
  it.each(['entities', 'tags', 'text', 'timestamps', 'tree-building'])('gives the text of the tree browsers build for every cue of wpt %s', (name) => {
    const cases = JSON.parse(readFileSync(join(wpt, `${name}.json`), 'utf8')) as Array<{ text: string; expectedTree: string }>;
    for (const { text, expectedTree } of cases) {
      // The file parser has already replaced NUL, and ended the cue at a blank line (its last line break is not in the payload).
      const payload = text.replace(/\n$/, '').split('\n\n')[0].replaceAll('\0', '\ufffd');
      expect({ payload, text: webVttPlainText(payload) }).toEqual({ payload, text: treeText(expectedTree) });
    }
  });
});

/** The text nodes of a wpt tree dump (`| <b>`, `|   "text"`), joined, without those inside `<rt>`. */
function treeText(tree: string): string {
  const nodes = [...tree.matchAll(/^\| ( *)(<[^>\n]*>|"[\s\S]*?")\n(?=\| |$)/gm)];
  let text = '';
  let rtDepth: number | null = null;
  for (const [, indent, node] of nodes) {
    const depth = indent.length / 2;
    if (rtDepth !== null && depth <= rtDepth) rtDepth = null;
    if (node.startsWith('<')) {
      if (node === '<rt>' && rtDepth === null) rtDepth = depth;
    } else if (rtDepth === null) text += node.slice(1, -1);
  }
  return text;
}
