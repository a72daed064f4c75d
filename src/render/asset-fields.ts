/** Each url field of a result and the fields that record its bytes. */
export const ASSET_FIELDS = [
  { url: 'url', sha256: 'sha256', path: 'path' },
  { url: 'audio_url', sha256: 'audio_sha256', path: 'audio_path' },
  { url: 'video_url', sha256: 'video_sha256', path: 'video_path' },
  { url: 'still_url', sha256: 'still_sha256', path: 'still_path' },
] as const;
