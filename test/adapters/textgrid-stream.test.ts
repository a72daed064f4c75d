import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { textGridEvents, parseTextGrid, type TextGridDocument } from '../../src/adapters/textgrid/parser.js';
import { TextGridFileTokens } from '../../src/adapters/textgrid/stream-reader.js';
import { tokenizeTextGrid, TextGridTokenizer, type TextGridToken } from '../../src/adapters/textgrid/tokenizer.js';
import { decodeSource as decodeWith, fileDecoder } from '../../src/adapters/source-text.js';
import { load } from '../../src/adapters/textgrid/codec.js';
import { RationalTime } from '../../src/time/rational-time.js';
import { tempDir } from '../support/sample-annot.js';

/**
 * The TextGrid reader streams: a file is tokenized chunk by chunk and parsed as events. Whatever
 * the chunk boundaries cut (a string with doubled quotes or line breaks, a number, a flag, a
 * comment, a CRLF), the tokens and the document must be those of the whole-file reader.
 */

const root = join(import.meta.dirname, '..', '..', 'fixtures', 'textgrid');
const FIXTURES = readdirSync(root).filter((name) => name.endsWith('.TextGrid'));

const decodeSource = (bytes: Uint8Array, file: string): string => decodeWith(bytes, { sourceName: file, report: () => {} });

function inPieces(text: string, size: number, file: string): TextGridToken[] {
  const tokenizer = new TextGridTokenizer(file);
  const tokens: TextGridToken[] = [];
  for (let at = 0; at < text.length; at += size) tokens.push(...tokenizer.push(text.slice(at, at + size)));
  tokens.push(...tokenizer.end());
  return tokens;
}

function streamed(path: string, file: string): TextGridDocument {
  const tokens = new TextGridFileTokens(path, file, fileDecoder(path, { sourceName: file, report: () => {} }));
  const document: TextGridDocument = { xmin: '', xmax: '', tiers: [] };
  try {
    for (const event of textGridEvents(tokens, file)) {
      if (event.kind === 'grid') Object.assign(document, { xmin: event.xmin, xmax: event.xmax });
      else if (event.kind === 'tier') document.tiers.push({ ...event.tier, items: [] });
      else document.tiers[document.tiers.length - 1].items.push(event.item);
    }
  } finally {
    tokens.close();
  }
  return document;
}

/** A long-format TextGrid of `n` intervals with the awkward parts: quotes, line breaks, CRLF, comments, brackets. */
function awkward(n: number): string {
  const lines = ['File type = "ooTextFile"', 'Object class = "TextGrid"', '', 'xmin = 0 ', `xmax = ${n} `, 'tiers? <exists> ', 'size = 1 ', 'item []: ', '    item [1]:', '        class = "IntervalTier" ', '        name = "words" ', '        xmin = 0 ', `        xmax = ${n} `, `        intervals: size = ${n} `];
  for (let i = 0; i < n; i++) {
    const text = i % 3 === 0 ? `say ""hi"" ${i}` : i % 3 === 1 ? `two\r\nlines ${i}` : `plain ${i}`;
    lines.push(`        intervals [${i + 1}]: ! a comment [with brackets]`, `            xmin = ${i}.000 `, `            xmax = ${i + 1} `, `            text = "${text}" `);
  }
  return lines.join('\r\n') + '\r\n';
}

describe('TextGrid read as a stream', () => {
  const { dir, cleanup } = tempDir('annot-textgrid-stream-');
  afterAll(cleanup);

  it.each(FIXTURES)('%s: the tokens are the same in pieces of any size', (name) => {
    const text = decodeSource(readFileSync(join(root, name)), name);
    const whole = tokenizeTextGrid(text, name);
    for (const size of [1, 2, 3, 5, 17, 64, 1000]) expect(inPieces(text, size, name)).toEqual(whole);
  });

  it.each(FIXTURES)('%s: the file read in chunks parses to the same document', (name) => {
    const path = join(root, name);
    expect(streamed(path, name)).toEqual(parseTextGrid(decodeSource(readFileSync(path), name), name));
  });

  it('a file many chunks long, with strings, comments and CRLFs across the chunk boundaries, parses to the same document', () => {
    const path = join(dir, 'awkward.TextGrid');
    const text = awkward(6000);
    writeFileSync(path, text);
    expect(Buffer.byteLength(text)).toBeGreaterThan(4 * 64 * 1024);
    const document = streamed(path, 'awkward.TextGrid');
    expect(document.tiers[0].items).toHaveLength(6000);
    expect(document.tiers[0].items[1].text).toBe('two\nlines 1');
    expect(document).toEqual(parseTextGrid(decodeSource(readFileSync(path), 'awkward.TextGrid'), 'awkward.TextGrid'));
    for (const size of [7, 4096]) expect(inPieces(text, size, 'awkward.TextGrid')).toEqual(tokenizeTextGrid(text, 'awkward.TextGrid'));
  });

  it('a label of megabytes, a long comment and a long word read in pieces give the whole-file tokens', () => {
    const label = 'x""y\n'.repeat(400_000);
    const text = `File type = "ooTextFile"\nObject class = "TextGrid"\n! ${'c'.repeat(300_000)}\n0 1 <exists> 1 "IntervalTier" "${label}" ${'9'.repeat(200_000)} 1 1 0 1 "${label}"\n`;
    expect(inPieces(text, 65536, 'big.TextGrid')).toEqual(tokenizeTextGrid(text, 'big.TextGrid'));
  });

  it.each([
    ['an unterminated string', 'File type = "ooTextFile"\nObject class = "TextGrid"\n0 1 <absent>\n"never closed\n'],
    ['a flag cut by a line break', 'File type = "ooTextFile"\nObject class = "TextGrid"\n0 1 <abs\nent>\n'],
    ['a parse error before a tokenizer error (the tokenizer error wins)', 'File type = "ooTextFile"\nObject class = "Nope"\n0 1 <absent>\n"never closed\n'],
    ['a file cut short', 'File type = "ooTextFile"\nObject class = "TextGrid"\n0 1 <exists> 1 "IntervalTier" "a" 0 1 2 0 0.5 "x"\n'],
    ['a character after a closing quote', 'File type = "ooTextFile"\nObject class = "TextGrid"\n0 1 <exists> 1 "IntervalTier" "a" 0 1 1 0 1 "ad"x\n'],
  ])('%s: load() throws the same error as the whole-file reader', async (_, text) => {
    const path = join(dir, 'bad.TextGrid');
    writeFileSync(path, text);
    let whole: unknown;
    try {
      parseTextGrid(text, 'bad.TextGrid');
    } catch (error) {
      whole = error;
    }
    expect(whole).toBeInstanceOf(Error);
    await expect(load(path, { sourceName: 'bad.TextGrid', now: RationalTime.now(1000), report: () => {} })).rejects.toThrow((whole as Error).message);
  });

  describe('a character after a closing quote, which Praat refuses ("Character x following quote (line 18)")', () => {
    const fixture = join(import.meta.dirname, '..', '..', 'fixtures', 'validate', 'text-after-quote.TextGrid');
    const text = readFileSync(fixture, 'utf8');
    const message = 'bad.TextGrid:18:24: expected whitespace after the closing quote of the string that starts at line 18, column 20; found "x"';

    it('is a parse error at the character in the whole-file parser', () => {
      expect(() => parseTextGrid(text, 'bad.TextGrid')).toThrow(message);
    });

    it('is the same error in the file read as a stream, whatever the piece boundaries', async () => {
      await expect(load(fixture, { sourceName: 'bad.TextGrid', now: RationalTime.now(1000), report: () => {} })).rejects.toThrow(message);
      const quote = text.indexOf('"ad"x') + 3;
      for (const size of [1, 2, 3, 7, quote, quote + 1, quote - 1]) expect(() => inPieces(text, size, 'bad.TextGrid')).toThrow(message);
    });

    it.each([
      ['a space', '"ad" x'],
      ['a line break', '"ad"\n'],
      ['the end of the file', '"ad"'],
      ['a doubled quote inside the text', '"a""d" '],
    ])('is not %s, which Praat reads', (_, ending) => {
      const ok = text.replace('"ad"x \n', ending);
      expect(parseTextGrid(ok, 'ok.TextGrid').tiers[0].items[0].text).toBe(ending.startsWith('"a""d"') ? 'a"d' : 'ad');
      expect(inPieces(ok, 5, 'ok.TextGrid')).toEqual(tokenizeTextGrid(ok, 'ok.TextGrid'));
    });
  });
});
