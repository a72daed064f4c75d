// A generated SRT file of many cues, written in chunks: the input of the conversion benchmarks
// (convert-stream, convert-retime), the same bytes for both.
import { createWriteStream } from 'node:fs';

function timestamp(ms) {
  const two = (n) => String(n).padStart(2, '0');
  return `${two(Math.floor(ms / 3600000))}:${two(Math.floor(ms / 60000) % 60)}:${two(Math.floor(ms / 1000) % 60)},${String(ms % 1000).padStart(3, '0')}`;
}

/** An SRT file of `count` cues, one or two lines each, some with tags (which FFmpeg and annot both keep). */
export async function writeSrt(path, count) {
  const stream = createWriteStream(path);
  const write = (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', resolve)));
  let chunk = [];
  for (let i = 0; i < count; i++) {
    const start = i * 1500;
    const text = i % 2 === 0 ? `Line ${i} of the <i>generated</i> subtitles` : `Line ${i}\nand a second line`;
    chunk.push(`${i + 1}\n${timestamp(start)} --> ${timestamp(start + 1200)}\n${text}\n\n`);
    if (chunk.length === 10000) {
      await write(chunk.join(''));
      chunk = [];
    }
  }
  await write(chunk.join(''));
  await new Promise((resolve) => stream.end(resolve));
}
