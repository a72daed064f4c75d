/**
 * The root entry point of annot: rational time and Allen's relations, the annotation model and its
 * wire form, body schemas, the stores (memory, mapping, SQLite `.annot`), the op-log and the service,
 * the formats and conversion, quality metrics, processors, opt-in tracing, and scene rendering.
 *
 * @packageDocumentation
 * @module annot
 */

// The public library API of annot. Everything a program needs is exported here with camelCase
// names; wire/JSON fields keep the snake_case of the descriptions.

// errors shared by every layer
export { AnnotError, InvalidInputError, NotFoundError, UsageError } from './errors/annot-error.js';

// time
export { RationalTime, UNKNOWN_GENERATED_AT, isUnknownGeneratedAt, type RationalTimeWire } from './time/rational-time.js';
export { TimeInterval, type TimeIntervalWire } from './time/time-interval.js';
export { type RoundingMode } from './time/decimal.js';
export { LossyTimeConversionError, InvalidTimeError } from './time/errors.js';
export {
  AllenRelation,
  ALLEN_RELATIONS,
  ALLEN_SYMBOLS,
  compose,
  holds,
  intersects,
  inverse,
  parseAllenRelation,
  relate,
} from './time/allen.js';

// model
export {
  annotationInterval,
  annotationRef,
  isAnnotationRef,
  isMediaRef,
  makeAnnotation,
  mediaRef,
  reviseAnnotation,
  type Annotation,
  type AnnotationInit,
  type AnnotationRef,
  type MediaRef,
  type Reference,
} from './model/annotation.js';
export { generatedAtIsKnown, makeProvenance, type Provenance, type ProvenanceInit } from './model/provenance.js';
export { makeTier, TierStereotype, TIER_STEREOTYPES, type Tier, type TierInit } from './model/tier.js';
export { validateTierConstraint, type TierViolation, type TierViolationCode } from './model/tier-constraint.js';
export { makeApprovalReview, REVIEW_BODY_SCHEMA_URI, REVIEW_TIER, type ApprovalReviewOptions } from './quality/review.js';
export {
  annotationFromWire,
  annotationToWire,
  tierFromWire,
  tierToWire,
  type AnnotationWire,
  type ProvenanceWire,
  type ReferenceWire,
  type TierWire,
} from './model/wire.js';
export { type JsonObject, type JsonValue } from './json/json-body.js';
export { InvalidAnnotationError, InvalidTierError, WireFormatError } from './model/errors.js';

// body schemas
export {
  assertValidBody,
  BodySchemaRegistry,
  defaultBodySchemaRegistry,
  getBodySchema,
  hasBodySchema,
  listBodySchemas,
  registerBodySchema,
  validateBody,
  type BodyValidationResult,
  type JsonSchema,
} from './schemas/registry.js';
export { bodySchemaUri, isBodySchemaUri, parseBodySchemaUri } from './schemas/schema-uri.js';
export { hasMigrationPath, migrate, registerMigration } from './schemas/migrations.js';
// The SubRip and WebVTT cue migrations (v1 to v2) know their formats' markup, so they live with the formats.
import { registerCueSchemaMigrations } from './adapters/cue-schema-migrations.js';
registerCueSchemaMigrations();
export { exportJsonSchemas } from './schemas/export.js';
export { type ValidationIssue } from './schemas/validation-issue.js';
export {
  BodySchemaConflictError,
  BodyValidationError,
  InvalidBodySchemaUriError,
  InvalidJsonSchemaError,
  MigrationError,
  MigrationFailedError,
  MissingMigrationError,
  UnknownBodySchemaError,
} from './schemas/errors.js';

// digests
export { canonicalJson } from './json/canonical-json.js';
export { hashBytes, hashFile, sha256Hex } from './digest/hash-file.js';
export { annotationEtag, ifMatchSatisfied } from './digest/etag.js';
export { annotationBodyDigest, annotationValueDigest } from './digest/digests.js';
export { NonStringBodyKeyError, NotJsonError } from './json/errors.js';

// quality metrics
export { cohenKappa, krippendorffAlpha, type Label } from './quality/agreement.js';
export { boundaryIou, intervalIou, type BoundaryIouOptions } from './quality/segmentation.js';
export { InsufficientDataError, MetricInputError } from './quality/errors.js';

// stores
export { type AddTierOptions, type AnnotationStore } from './store/store.js';
export {
  readQueryKey,
  type IntervalKey,
  type ReadForm,
  type ReadItem,
  type ReadOptions,
  type ReadPage,
  type ReadPosition,
  type ReadQuery,
} from './store/read-page.js';
export { MemoryStore, type MemoryStoreOptions, type MemoryStoreSnapshot, type StoreChange } from './store/memory.js';
export {
  JSON_BYTES_CODEC,
  JSON_TEXT_CODEC,
  JSON_VALUE_CODEC,
  MAPPING_META_KEY,
  MAPPING_TIERS_KEY,
  MappingStore,
  type MapLike,
  type MappingCodec,
  type MappingStoreOptions,
} from './store/mapping.js';
export { SqliteStore, type SqliteStoreOptions } from './store/sqlite.js';
export { ANNOT_APPLICATION_ID, SQLITE_SCHEMA_VERSION } from './store/sqlite-schema.js';
export { compareByInterval, compareIntervals, sortByInterval } from './store/ordering.js';
export { candidateBounds, matchesIntersects, matchesRelations } from './store/relation-filter.js';
export {
  AnnotationNotFoundError,
  DuplicateAnnotationIdError,
  InvalidCursorError,
  KeyMismatchError,
  StoreFormatError,
  TierInUseError,
  ProjectRateLossError,
  ProjectRateMismatchError,
  TierNotFoundError,
  TierOverlapError,
  UnknownTierError,
} from './store/errors.js';
export {
  FileAccessError,
  FileInUseError,
  FileTooLargeError,
  NoSpaceError,
  OrphanJournalError,
  PermissionDeniedError,
  ReadOnlyFileSystemError,
  WriteFailedError,
} from './io/errors.js';

// subtitle tracks
export {
  DEFAULT_SUBTITLE_RATE,
  LINE_SCHEMA_URI,
  LINES_TIER,
  SECTION_SCHEMA_URI,
  SECTIONS_TIER,
  secondsToInterval,
  secondsToTime,
  SubtitleBuilder,
  SubtitleTrack,
  WORD_SCHEMA_URI,
  WORDS_TIER,
  type LineOptions,
  type LineReceipt,
  type SectionOptions,
  type SubtitleBuilderOptions,
  type SubtitleTrackOptions,
  type WordOptions,
  type WordSpec,
} from './tracks/subtitle.js';

// op-log and the service layer
export { type Mutation, type MutationKind } from './oplog/mutation.js';
export { type MutationContext, type OpLogEntry } from './oplog/op-log-entry.js';
export { isOpLoggedStore, type OpLoggedStore, type OpLogRange } from './oplog/op-logged-store.js';
export { replayInto, stateAt, type StateSnapshot } from './store/replay.js';
export { ClockOutOfRangeError, PreconditionFailedError } from './oplog/errors.js';
export {
  AnnotationService,
  SERVICE_AGENT,
  type AnnotationBatch,
  type AnnotationDeletion,
  type AnnotationInput,
  type AnnotationPatch,
  type BatchResult,
  type Mutated,
} from './service/annotation-service.js';
export type { AnnotationEdit } from './service/tier-constraint-guard.js';
export { PreconditionRequiredError } from './service/errors.js';
export { queryAnnotations, type QueryRequest } from './service/query-annotations.js';
export { parseReadRequest, type ReadInput, type ReadRequest } from './service/read-request.js';
export { LIBRARY_WORDING, plainWording, type ReadField, type ReadWording } from './service/read-wording.js';
export { decodeCursor, encodeCursor } from './service/read-cursor.js';
export { readPage, readPages } from './service/read-annotations.js';
export { validateAnnotations, type ValidationSummary } from './service/validate-annotations.js';
export { convertFile, type ConvertReport, type ConvertRequest } from './service/convert-file.js';
// retiming (issue 35): the map a conversion's `retime` takes, and what its report says the retime did
export { retimeMap, wireSpelling, flagSpelling, type RetimeMap, type RetimeWindow, type RetimeRequest, type RetimePart, type PartSpelling } from './time/retime.js';
export { type RetimeCounts } from './service/retime-annotations.js';
export { type RetimeReport } from './service/retimed-document.js';
export { exportFromService, importIntoService, type ImportReport, type ImportRequest } from './service/import-export.js';

// formats
export { type DumpOptions, type DumpReport, type FormatAdapter, type FormatCodec, type LoadedDocument, type LoadOptions } from './adapters/adapter.js';
export { adaptersForFileName, getAdapter, inferFormat, listAdapters, registerAdapter, registerBuiltinFormats } from './adapters/registry.js';
export { BUILTIN_FORMATS } from './adapters/builtin.js';
export { loadIntoStore } from './adapters/load-into-store.js';
export { decimalRateFor, exactFrameRate, ImportClock } from './adapters/import-clock.js';
export { FormatParseError, UnknownFormatError, UnrepresentableError, type SourceLocation } from './adapters/errors.js';

// processors (the Redis queue and worker are the `annot/queue` and `annot/worker` subpaths; PostgresStore is `annot/postgres`)
export {
  getProcessor,
  listProcessors,
  registerProcessor,
  resolveProcessorParams,
  runProcessor,
  unregisterProcessor,
  type ProcessorInfo,
  type RunProcessorOptions,
} from './processors/registry.js';
export { type Processor, type ProcessorContext, type ProcessorProgress, type ProcessorResult } from './processors/processor.js';
export { parseParamArgs } from './processors/params.js';
export { JobNotFoundError, ProcessorFailedError, ProcessorParamsError, QueueUnavailableError, UnknownProcessorError } from './processors/errors.js';
export { isPostgresLocation, openServiceStore, redactLocation } from './service/open-service-store.js';

// opt-in OpenTelemetry (the API only; the SDK loads inside startOtelSdk)
export { activeTracer, isTracingActive, TRACER_NAME, withProcessorSpan, withSpan } from './telemetry/tracing.js';
export { startOtelSdk, type OtelShutdown } from './telemetry/sdk.js';
export * from './telemetry/attributes.js';

// scene rendering
export {
  loadSceneFile,
  parseSceneText,
  sceneFromValue,
  sceneWarnings,
  toBeat,
  toCharacter,
  toEnvironment,
  toScene,
  toShot,
  type Beat,
  type BeatInput,
  type Character,
  type CharacterInput,
  type Environment,
  type EnvironmentInput,
  type Scene,
  type SceneInput,
  type SceneWarning,
  type Shot,
  type ShotInput,
  type Voice,
  type VoiceInput,
} from './render/scene.js';
export {
  listModels,
  modelCategories,
  modelIdFor,
  pickModel,
  resolveModel,
  tierSearchOrder,
  TIERS as QUALITY_TIERS,
  UnknownQualityTierError,
  type ModelPrice,
  type ModelRecord,
  type Tier as QualityTier,
} from './render/catalog.js';
export { beatHash, callKey, shotHash } from './render/hashing.js';
export { closeRenderCaches, defaultCacheDir, openRenderCache, RenderCache, CACHE_FILE_NAME } from './render/cache.js';
export { currentFalKey, hasBoundCredentials, withCredentials, type Credentials } from './render/credentials.js';
export { DEFAULT_FAL_QUEUE_URL, FalProvider, type FalProviderOptions } from './render/providers/fal/fal-provider.js';
export { LOCAL_CLIP_SECONDS, LocalProvider, type LocalProviderOptions } from './render/providers/local.js';
export { type SpeechEngine } from './render/local/speech.js';
export { LocalAssetUnreachableError, LocalMediaError } from './render/local/errors.js';
export { assetsOf, type Asset, type Provider, type ProviderRunOptions, type RequestTicket } from './render/providers/provider.js';
export { type CommonRenderOptions } from './render/model-call.js';
export { renderBeat, type BeatResult, type EmptyBeatResult, type RenderBeatOptions } from './render/render-beat.js';
export { renderShot, shotPrompt, type ClipShotResult, type RenderShotOptions, type ShotResult, type StillShotResult } from './render/render-shot.js';
export { iterRenderScene, renderScene, SceneRenderError, type RenderSceneOptions, type SceneUnitResult, type UnitFailure } from './render/render-scene.js';
export { buildManifest, manifestPathFor, type SceneBeatResult, type SceneManifest, type SkippedBeatResult } from './render/manifest.js';
export { type RenderEvent, type RenderEventListener } from './render/events.js';
export { openRemoteCache } from './render/remote/open-remote-cache.js';
export { RemoteCache, type LocalMediaStore, type RemoteCacheOptions, type RemoteCacheStats, type RemoteUnitContext } from './render/remote/remote-cache.js';
export {
  parseRemoteCacheLocation,
  REMOTE_CACHE_MODES,
  RemoteCacheLocationError,
  type RemoteCacheLocation,
  type RemoteCacheMode,
} from './render/remote/remote-cache-location.js';
export { type MediaBlob, type UnitAddress } from './render/remote/unit-entry.js';
export { type S3Timeouts } from './render/remote/s3-object-store.js';
export { prepareBucket, RemoteCacheUnavailableError, type BucketReport } from './render/remote/prepare-bucket.js';
export { type CallOptions, type ObjectStore } from './render/remote/object-store.js';
export { type PendingRequests } from './render/pending-requests.js';
export { UnitNotStartedError, type ExecutedUnit, type ExecutorContext, type UnitExecutor, type UnitSpec } from './render/unit-executor.js';
export { FalBadRequest, FalError, FalForeignUrlError, FalRateLimited, FalServerError, FalTimeout, FalUnauthorized } from './render/providers/fal/errors.js';
export {
  RenderAbortedError,
  RenderProducedNoAssetError,
  SceneFileError,
  UnknownModelCategoryError,
  UnknownModelError,
  type SceneProblem,
} from './render/errors.js';

// types that the exported declarations name, so a program can name them too
export { ERROR_TABLE, type ErrorCode, type ErrorRow } from './errors/error-table.js';
export { type JsonPrimitive } from './json/json-body.js';
export { type Fraction } from './time/decimal.js';
export { type ResolveOptions, type TimeInput, type TimeParseOptions } from './time/time-input.js';
export { type BodySchemaId } from './schemas/schema-uri.js';
export { type MigrationFunction, type RegisterMigrationOptions } from './schemas/migrations.js';
export { type RegisterOptions } from './schemas/registry.js';
export { type CandidateBounds } from './store/relation-filter.js';
export { type IntervalQueryKind, type IntervalQueryShortcuts } from './store/interval-query-shortcuts.js';
export { type MemoryOpLoggedStore } from './store/memory-op-logged.js';
export { type Finding, type FindingSeverity } from './adapters/finding.js';
export { type FlatCue, type FlatSelection, type ReplayableDocument } from './adapters/adapter.js';
export { type InferFormatInput } from './adapters/registry.js';
export { type LoadIntoStoreOptions } from './adapters/load-into-store.js';
export { type AnnotationUpdate } from './service/annotation-updates.js';
export { type ExportResult } from './service/import-export.js';
export { type OpenServiceStoreOptions } from './service/open-service-store.js';
export { type ValidationProblem } from './service/validate-annotations.js';
export { type LineLocator } from './render/scene.js';
export { type BeatModels, type ShotModels } from './render/hashing.js';
export { type StoredUnit } from './render/cache.js';
export { type DurableAssetFields } from './render/assets.js';
export { type DurationFields } from './render/media-probe.js';
export { type LayoutBeat, type LayoutShot, type SceneLayout } from './render/manifest.js';
export { type SceneUnitOptions, type UnitIdentity } from './render/scene-units.js';
export { type FailedUnitRecord, type SceneRunManifest, type SceneRunOutcome } from './render/render-scene.js';
