/** One failure found by a validator: where (a readable field path) and what was expected. */
export interface ValidationIssue {
  /** `body.items[0].text`, `reference.interval.start.r`: the path of the offending field. */
  readonly path: string;
  /** What was expected there. */
  readonly message: string;
  /** The JSON Schema keyword that failed (`required`, `type`, ...) or `semantic` for checks made in code. */
  readonly keyword: string;
}
