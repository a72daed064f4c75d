import { escapeSrtText, srtPlainText, srtRuns } from '../../src/adapters/srt/srt-markup.js';

const WJ = '\u2060';

describe('SubRip text: the tags players know, and everything else as text', () => {
  it('leaves out b, i, u, s and font tags and {\\...} override blocks', () => {
    expect(srtPlainText('<i>it</i> <B>bold</B> <s>gone</s> <font color="red">red</font> {\\an8}top')).toBe('it bold gone red top');
    expect(srtPlainText('<b class=x>b</b >')).toBe('b');
  });

  it('keeps every other < as text, as FFmpeg does for "1 < 2 > 0" and VLC for "<lacht>"', () => {
    expect(srtPlainText('Tom & Jerry: 1 < 2 > 0')).toBe('Tom & Jerry: 1 < 2 > 0');
    expect(srtPlainText('„Wie geht\'s?“ <lacht> <3 <br> <bold>')).toBe('„Wie geht\'s?“ <lacht> <3 <br> <bold>');
    expect(srtPlainText('{not an override} &amp; stays')).toBe('{not an override} &amp; stays');
  });

  it('gives bold, italic and underline runs', () => {
    expect(srtRuns('<i>a</i>b<b><u>c</u></b>')).toEqual([
      { text: 'a', italic: true, bold: false, underline: false },
      { text: 'b', italic: false, bold: false, underline: false },
      { text: 'c', italic: false, bold: true, underline: true },
    ]);
  });

  it('escapes what FFmpeg would read as markup with a word joiner, and reads it back', () => {
    expect(escapeSrtText('a <lacht> b')).toBe(`a <${WJ}lacht> b`);
    expect(escapeSrtText('<i>not italic</i>')).toBe(`<${WJ}i>not italic<${WJ}/i>`);
    expect(escapeSrtText('1 < 2 > 0, <3')).toBe('1 < 2 > 0, <3');
    expect(escapeSrtText('{\\an8} C:\\New \\h \\x')).toBe(`{${WJ}\\an8} C:\\${WJ}New \\${WJ}h \\x`);
    for (const text of ['a <lacht> b', '<i>x</i>', '{\\an8}', 'C:\\New', '<<a>>', '</>', 'x<y>z<', '1 < 2 > 0']) {
      expect(srtPlainText(escapeSrtText(text))).toBe(text);
    }
  });
});
