/** `annot convert`'s arguments and flags, as oclif parses them (and the start-up fast path does). */
export interface ConvertArguments {
  readonly input: string;
  readonly output: string;
  readonly from?: string;
  readonly to?: string;
  readonly rate?: number;
  readonly encoding?: string;
  readonly strict?: boolean;
  readonly strictTime?: boolean;
  readonly assetId?: string;
  readonly tier?: string;
  readonly variant?: string;
}
