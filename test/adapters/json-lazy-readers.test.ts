import { describe, expect, it } from '@jest/globals';
import type { Finding } from '../../src/adapters/finding.js';
import { readJams } from '../../src/adapters/jams/jams-reader.js';
import { LABEL_STUDIO_TASKS_META, readLabelStudio } from '../../src/adapters/label-studio/ls-reader.js';
import { readWebAnnotation } from '../../src/adapters/web-annotation/wa-reader.js';
import type { Annotation } from '../../src/model/annotation.js';
import { RationalTime } from '../../src/time/rational-time.js';

// The JAMS, Label Studio and Web Annotation readers keep their big lists as text and read them in
// two passes (see LazyJsonArray): these hold them to what a whole-tree read gives.

const options = (findings: Finding[] = []) => ({ sourceName: 'in.json', now: new RationalTime(0, 1000), report: (finding: Finding) => void findings.push(finding) });

async function all(annotations: AsyncIterable<Annotation>): Promise<Annotation[]> {
  const out: Annotation[] = [];
  for await (const annotation of annotations) out.push(annotation);
  return out;
}

const region = (id: string, start: number, end: number) => ({ id, from_name: 'label', to_name: 'audio', type: 'labels', value: { start, end, labels: [id] } });

describe('readers of lazy JSON lists', () => {
  it('refuse a syntax error at the end of the file before a bad item early in a list', async () => {
    const jams = '{"annotations": [{"namespace": "beat", "data": [{"time": -1, "duration": 0}]}], "sandbox": {} x';
    await expect(readJams(Buffer.from(jams), options())).rejects.toThrow('in.json:1:95: expected "," or "}" after a property value; the file is not valid JSON');
    const ls = `[{"data": {"audio": "a.wav"}, "annotations": [{"result": [7]}]}, {"data": {}]`;
    expect(() => readLabelStudio(Buffer.from(ls), options())).toThrow(/"," or "}" after a property value/);
    const wa = '{"type": "AnnotationPage", "items": [{"type": "Annotation", "target": "a.mp4#t=5,1"}], "x": tru}';
    expect(() => readWebAnnotation(Buffer.from(wa), options())).toThrow(/a JSON value/);
  });

  it('Label Studio: the ids in the kept task skeleton are the ids of the annotations, and the first bad task is named before any result', async () => {
    const tasks = [{ data: { audio: 'a.wav' }, annotations: [{ result: [region('r1', 0, 1), { id: 'c', type: 'choices', value: { choices: ['x'] } }, region('r2', 1, 2.5)] }] }];
    const findings: Finding[] = [];
    const document = readLabelStudio(Buffer.from(JSON.stringify(tasks)), options(findings));
    const annotations = await all(document.annotations);
    expect(annotations.map((annotation) => annotation.body.id)).toEqual(['r1', 'r2']);
    const skeleton = JSON.parse(document.meta[LABEL_STUDIO_TASKS_META]) as Array<{ annotations: Array<{ result: unknown[] }> }>;
    expect(skeleton[0].annotations[0].result).toEqual([{ $annot_annotation: annotations[0].id }, { id: 'c', type: 'choices', value: { choices: ['x'] } }, { $annot_annotation: annotations[1].id }]);
    expect(findings.map((finding) => finding.code)).toEqual(['untimed_items_kept']);
    const badTask = JSON.stringify([{ data: {}, annotations: [{ result: [7] }] }, 'not a task']);
    expect(() => readLabelStudio(Buffer.from(badTask), options())).toThrow(/\$\[1\].*expected a task object/);
  });

  it('Web Annotation: a collection with items both beside and in its first page keeps the outer ones verbatim', async () => {
    const document = {
      type: 'AnnotationCollection',
      items: [{ note: 'kept' }],
      first: { type: 'AnnotationPage', items: [{ type: 'Annotation', target: 'a.mp4#t=1,2' }, { type: 'Annotation', target: 'a.mp4' }] },
    };
    const findings: Finding[] = [];
    const read = readWebAnnotation(Buffer.from(JSON.stringify(document)), options(findings));
    const annotations = await all(read.annotations);
    expect(annotations).toHaveLength(1);
    expect(JSON.parse(read.meta['web_annotation.document'])).toEqual({ shape: 'collection-first', wrapper: { type: 'AnnotationCollection', items: [{ note: 'kept' }], first: { type: 'AnnotationPage' } } });
    expect(JSON.parse(read.meta['web_annotation.untimed'])).toEqual([{ index: 1, annotation: { type: 'Annotation', target: 'a.mp4' } }]);
  });
});
