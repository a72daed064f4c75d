import { UnknownAllenRelationError } from './errors.js';
import type { TimeInterval } from './time-interval.js';

/**
 * Allen's thirteen interval relations (Allen 1983), read "a <relation> b". The values are the
 * snake_case names the HTTP and CLI layers accept; `AllenRelation.MEETS === 'meets'`.
 */
export const AllenRelation = {
  /** The annotation ends before the other starts, with a gap. */
  BEFORE: 'before',
  /** The annotation starts after the other ends, with a gap. */
  AFTER: 'after',
  /** The annotation ends exactly where the other starts. */
  MEETS: 'meets',
  /** The annotation starts exactly where the other ends. */
  MET_BY: 'met_by',
  /** The annotation starts first and ends inside the other. */
  OVERLAPS: 'overlaps',
  /** The other starts first and ends inside the annotation. */
  OVERLAPPED_BY: 'overlapped_by',
  /** Both start together; the annotation ends first. */
  STARTS: 'starts',
  /** Both start together; the other ends first. */
  STARTED_BY: 'started_by',
  /** The annotation lies strictly inside the other. */
  DURING: 'during',
  /** The other lies strictly inside the annotation. */
  CONTAINS: 'contains',
  /** Both end together; the annotation starts later. */
  FINISHES: 'finishes',
  /** Both end together; the other starts later. */
  FINISHED_BY: 'finished_by',
  /** Both start and end together. */
  EQUALS: 'equals',
} as const;

/** One of Allen's thirteen relations between two intervals (`before`, `meets`, `overlaps`...). */
export type AllenRelation = (typeof AllenRelation)[keyof typeof AllenRelation];

/**
 * Every relation in the fixed order `relate` tries them. With points several predicates can hold
 * at once (a point at an interval's start both meets and starts it); the first one here wins.
 * `compose` returns its sets in this order too.
 */
export const ALLEN_RELATIONS: readonly AllenRelation[] = Object.freeze([
  'before', 'after', 'meets', 'met_by', 'overlaps', 'overlapped_by', 'starts', 'started_by',
  'during', 'contains', 'finishes', 'finished_by', 'equals',
] as const);

/** Allen's one- and two-letter symbols, the spelling of the published composition table. */
export const ALLEN_SYMBOLS: Readonly<Record<AllenRelation, string>> = Object.freeze({
  before: '<',
  after: '>',
  meets: 'm',
  met_by: 'mi',
  overlaps: 'o',
  overlapped_by: 'oi',
  starts: 's',
  started_by: 'si',
  during: 'd',
  contains: 'di',
  finishes: 'f',
  finished_by: 'fi',
  equals: '=',
});

const INVERSE: Readonly<Record<AllenRelation, AllenRelation>> = Object.freeze({
  before: 'after',
  after: 'before',
  meets: 'met_by',
  met_by: 'meets',
  overlaps: 'overlapped_by',
  overlapped_by: 'overlaps',
  starts: 'started_by',
  started_by: 'starts',
  during: 'contains',
  contains: 'during',
  finishes: 'finished_by',
  finished_by: 'finishes',
  equals: 'equals',
});

/** The converse relation: `holds(r, a, b)` exactly when `holds(inverse(r), b, a)`. */
export function inverse(relation: AllenRelation): AllenRelation {
  return INVERSE[relation];
}

/**
 * The four endpoint comparisons every relation is decided from, each -1, 0 or 1 by rational
 * value (rates may differ). Computing them once keeps `relate` at four comparisons.
 */
interface Endpoints {
  /** a.start vs b.start */
  ss: number;
  /** a.end vs b.end */
  ee: number;
  /** a.end vs b.start */
  es: number;
  /** a.start vs b.end */
  se: number;
}

function endpoints(a: TimeInterval, b: TimeInterval): Endpoints {
  return {
    ss: a.start.compare(b.start),
    ee: a.end.compare(b.end),
    es: a.end.compare(b.start),
    se: a.start.compare(b.end),
  };
}

/*
 * The definitions, half-open [start, end): an interval holds its start and not its end, and a
 * point (start == end) is a valid interval. "a" is drawn on the upper line, "b" below it.
 */
const PREDICATES: Readonly<Record<AllenRelation, (p: Endpoints) => boolean>> = Object.freeze({
  /**
   *  [aaa)
   *         [bbb)      a.end < b.start  (a gap between them)
   */
  before: (p) => p.es < 0,
  /**
   *         [aaa)
   *  [bbb)             a.start > b.end
   */
  after: (p) => p.se > 0,
  /**
   *  [aaa)
   *      [bbb)         a.end == b.start and a != b  (touching: they meet, they do not overlap)
   */
  meets: (p) => p.es === 0 && !(p.ss === 0 && p.ee === 0),
  /**
   *      [aaa)
   *  [bbb)             a.start == b.end and a != b
   */
  met_by: (p) => p.se === 0 && !(p.ss === 0 && p.ee === 0),
  /**
   *  [aaaa)
   *    [bbbb)          a.start < b.start < a.end < b.end
   */
  overlaps: (p) => p.ss < 0 && p.es > 0 && p.ee < 0,
  /**
   *    [aaaa)
   *  [bbbb)            b.start < a.start < b.end < a.end
   */
  overlapped_by: (p) => p.ss > 0 && p.se < 0 && p.ee > 0,
  /**
   *  [aa)
   *  [bbbbb)           a.start == b.start and a.end < b.end
   */
  starts: (p) => p.ss === 0 && p.ee < 0,
  /**
   *  [aaaaa)
   *  [bb)              a.start == b.start and a.end > b.end
   */
  started_by: (p) => p.ss === 0 && p.ee > 0,
  /**
   *    [aa)
   *  [bbbbbb)          a.start > b.start and a.end < b.end  (strictly inside)
   */
  during: (p) => p.ss > 0 && p.ee < 0,
  /**
   *  [aaaaaa)
   *    [bb)            a.start < b.start and a.end > b.end  (strictly contains)
   */
  contains: (p) => p.ss < 0 && p.ee > 0,
  /**
   *     [aa)
   *  [bbbbb)           a.start > b.start and a.end == b.end
   */
  finishes: (p) => p.ss > 0 && p.ee === 0,
  /**
   *  [aaaaa)
   *     [bb)           a.start < b.start and a.end == b.end
   */
  finished_by: (p) => p.ss < 0 && p.ee === 0,
  /**
   *  [aaa)
   *  [bbb)             a.start == b.start and a.end == b.end
   */
  equals: (p) => p.ss === 0 && p.ee === 0,
});

/** Whether `a <relation> b` holds under the half-open definitions above. */
export function holds(relation: AllenRelation, a: TimeInterval, b: TimeInterval): boolean {
  const predicate = PREDICATES[relation];
  if (predicate === undefined) throw unknownRelation(relation);
  return predicate(endpoints(a, b));
}

/**
 * The relation between a and b: the first that holds in `ALLEN_RELATIONS` order. Between two
 * proper intervals exactly one holds, so the order only matters for points (a point at an
 * interval's start is `meets`, two equal points are `equals`).
 */
export function relate(a: TimeInterval, b: TimeInterval): AllenRelation {
  const p = endpoints(a, b);
  for (const relation of ALLEN_RELATIONS) {
    if (PREDICATES[relation](p)) return relation;
  }
  // Every endpoint configuration satisfies at least `equals` or one of the others.
  throw new Error(`unreachable: no Allen relation between ${a.toString()} and ${b.toString()}`);
}

/**
 * Whether a and b share positive measure, with the point rules of half-open intervals: a point
 * intersects an interval that holds it (at its start yes, at its end no), and two points
 * intersect when they are the same instant. For proper intervals this is exactly the union of
 * the nine relations other than before, after, meets and met_by.
 */
export function intersects(a: TimeInterval, b: TimeInterval): boolean {
  const aPoint = a.isPoint;
  const bPoint = b.isPoint;
  if (aPoint && bPoint) return a.start.equals(b.start);
  if (aPoint) return b.start.le(a.start) && a.start.lt(b.end);
  if (bPoint) return a.start.le(b.start) && b.start.lt(a.end);
  return a.start.lt(b.end) && b.start.lt(a.end);
}

/**
 * Allen's composition ("transitivity") table from "Maintaining knowledge about temporal
 * intervals" (Allen 1983), written in his symbols. Row r1, column r2: the relations r that can hold between a
 * and c when r1(a, b) and r2(b, c). FULL means all thirteen ("no info" in the paper).
 * test/time/allen.test.ts checks every cell against brute force over small integer intervals.
 */
const FULL = '< > m mi o oi s si d di f fi =';
const COLUMNS = ['<', '>', 'm', 'mi', 'o', 'oi', 's', 'si', 'd', 'di', 'f', 'fi', '='];
const COMPOSITION_TABLE: Readonly<Record<string, readonly string[]>> = {
  //       <               >               m            mi           o              oi             s            si           d              di             f            fi           =
  '<':  ['<',            FULL,           '<',         '< m o s d', '<',           '< m o s d',   '<',         '<',         '< m o s d',   '<',           '< m o s d', '<',         '<'],
  '>':  [FULL,           '>',            '> mi oi d f', '>',       '> mi oi d f', '>',           '> mi oi d f', '>',       '> mi oi d f', '>',           '>',         '>',         '>'],
  'm':  ['<',            '> mi oi si di', '<',        'f fi =',    '<',           'o s d',       'm',         'm',         'o s d',       '<',           'o s d',     '<',         'm'],
  'mi': ['< m o di fi',  '>',            's si =',    '>',         'oi d f',      '>',           'oi d f',    '>',         'oi d f',      '>',           'mi',        'mi',        'mi'],
  'o':  ['<',            '> mi oi si di', '<',        'oi si di',  '< m o',       'o oi s si d di f fi =', 'o', 'o di fi', 'o s d',      '< m o di fi', 'o s d',     '< m o',     'o'],
  'oi': ['< m o di fi',  '>',            'o di fi',   '>',         'o oi s si d di f fi =', '> mi oi', 'oi d f', '> mi oi', 'oi d f',    '> mi oi si di', 'oi',      'oi si di',  'oi'],
  's':  ['<',            '>',            '<',         'mi',        '< m o',       'oi d f',      's',         's si =',    'd',           '< m o di fi', 'd',         '< m o',     's'],
  'si': ['< m o di fi',  '>',            'o di fi',   'mi',        'o di fi',     'oi',          's si =',    'si',        'oi d f',      'di',          'oi',        'di',        'si'],
  'd':  ['<',            '>',            '<',         '>',         '< m o s d',   '> mi oi d f', 'd',         '> mi oi d f', 'd',         FULL,          'd',         '< m o s d', 'd'],
  'di': ['< m o di fi',  '> mi oi si di', 'o di fi',  'oi si di',  'o di fi',     'oi si di',    'o di fi',   'di',        'o oi s si d di f fi =', 'di', 'oi si di',  'di',        'di'],
  'f':  ['<',            '>',            'm',         '>',         'o s d',       '> mi oi',     'd',         '> mi oi',   'd',           '> mi oi si di', 'f',       'f fi =',    'f'],
  'fi': ['<',            '> mi oi si di', 'm',        'oi si di',  'o',           'oi si di',    'o',         'di',        'o s d',       'di',          'f fi =',    'fi',        'fi'],
  '=':  ['<',            '>',            'm',         'mi',        'o',           'oi',          's',         'si',        'd',           'di',          'f',         'fi',        '='],
};

const BY_SYMBOL: ReadonlyMap<string, AllenRelation> = new Map(
  ALLEN_RELATIONS.map((relation) => [ALLEN_SYMBOLS[relation], relation]),
);

/** The table decoded once into frozen arrays in `ALLEN_RELATIONS` order, keyed "r1|r2". */
const COMPOSITION: ReadonlyMap<string, readonly AllenRelation[]> = (() => {
  const decoded = new Map<string, readonly AllenRelation[]>();
  for (const r1 of ALLEN_RELATIONS) {
    const row = COMPOSITION_TABLE[ALLEN_SYMBOLS[r1]];
    COLUMNS.forEach((column, i) => {
      const members = new Set(row[i].split(' ').map((symbol) => BY_SYMBOL.get(symbol)));
      const r2 = BY_SYMBOL.get(column) as AllenRelation;
      decoded.set(`${r1}|${r2}`, Object.freeze(ALLEN_RELATIONS.filter((r) => members.has(r))));
    });
  }
  return decoded;
})();

/**
 * The possible relations between a and c given r1(a, b) and r2(b, c), for proper (non-point)
 * intervals: a frozen array in `ALLEN_RELATIONS` order (an array rather than a Set so it
 * serializes to JSON as is and compares with plain equality in tests). Never empty.
 */
export function compose(r1: AllenRelation, r2: AllenRelation): readonly AllenRelation[] {
  const relations = COMPOSITION.get(`${r1}|${r2}`);
  if (relations === undefined) throw unknownRelation(INVERSE[r1] === undefined ? r1 : r2);
  return relations;
}

/**
 * Reads a relation name as the HTTP, CLI and MCP layers receive it: the snake_case name in any
 * case (`meets`, `MET_BY`), a hyphenated spelling (`met-by`), or Allen's symbol (`mi`, `<`, `=`).
 */
export function parseAllenRelation(name: string): AllenRelation {
  const text = String(name).trim();
  const bySymbol = BY_SYMBOL.get(text.toLowerCase());
  if (bySymbol !== undefined) return bySymbol;
  const snake = text.toLowerCase().replace(/-/g, '_');
  if ((ALLEN_RELATIONS as readonly string[]).includes(snake)) return snake as AllenRelation;
  throw unknownRelation(name);
}

function unknownRelation(name: unknown): UnknownAllenRelationError {
  return new UnknownAllenRelationError(
    `unknown Allen relation ${JSON.stringify(name)}: expected one of ${ALLEN_RELATIONS.join(', ')} ` +
      `(or a symbol: ${ALLEN_RELATIONS.map((r) => ALLEN_SYMBOLS[r]).join(' ')})`,
  );
}
