/**
 * Error messages are written once, by the library, in its own words: they may name a library
 * method (`add the tier first (addTier)`) or a CLI flag (`--start`). A model calling tools knows
 * only the tools and their arguments, so tool errors say those instead.
 */
const LIBRARY_TO_TOOL: ReadonlyArray<readonly [RegExp, string]> = [
  [/\baddTier\b/g, 'add_tier'],
  [/\blistTiers\b/g, 'list_tiers'],
  [/\bcreateAnnotation\b/g, 'add_annotation'],
  [/\bgetAnnotation\b/g, 'get_annotation'],
  [/\bdeleteAnnotation\b/g, 'delete_annotation'],
  [/\bqueryAnnotations\b/g, 'query_annotations'],
  [/\bacceptAiSuggestion\b/g, 'accept_ai_suggestion'],
  [/\blatestClock\b/g, 'latest_clock'],
  [/\bstateAt\b/g, 'state_at'],
  [/\blistFormats\b/g, 'list_formats'],
  [/ or use fromSecondsLossy\b/g, ''],
  [/--rate\b/g, 'rate'],
  [/--fps\b/g, 'fps'],
];

export function toolWording(message: string): string {
  let out = message;
  for (const [pattern, replacement] of LIBRARY_TO_TOOL) out = out.replace(pattern, replacement);
  return out;
}
