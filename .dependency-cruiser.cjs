/**
 * Import rules that CI enforces (`npm run lint`): no import cycles anywhere in src/, and no
 * import that runs upward through the layers written down in ARCHITECTURE.md. A layer may import
 * from its own layer and from any layer below it, never from one above.
 */
const LAYERS = [
  ['src/errors/', 'src/json/', 'src/time/', 'src/io/', 'src/text/'],
  ['src/schemas/', 'src/telemetry/'],
  ['src/model/'],
  ['src/digest/'],
  ['src/quality/'],
  // The store contract: the interface every backend implements, its paged read and its errors.
  ['src/store/store\\.ts$', 'src/store/read-page\\.ts$', 'src/store/errors\\.ts$'],
  ['src/oplog/'],
  // Backends (memory, mapping, sqlite, postgres) and replay, which builds a memory store.
  ['src/store/(?!store\\.ts$|read-page\\.ts$|errors\\.ts$)'],
  ['src/adapters/', 'src/tracks/', 'src/media/', 'src/sync/'],
  ['src/render/'],
  ['src/service/'],
  ['src/processors/'],
  ['src/server/', 'src/mcp/', 'src/cli/'],
  ['src/index\\.ts$', 'commands/'],
];

const pathOf = (layer) => `^(${layer.join('|')})`;

const upwardRules = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `layer-${index}-imports-upward`,
  comment: `${layer.join(', ')} may import only from its own layer and the layers below it (ARCHITECTURE.md)`,
  severity: 'error',
  from: { path: pathOf(layer) },
  to: { path: LAYERS.slice(index + 1).map(pathOf) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'An import cycle makes load order matter and hides which module owns a concept.',
      severity: 'error',
      from: { path: '^(src|commands|web)/' },
      to: { circular: true },
    },
    ...upwardRules,
    {
      name: 'web-imports-only-types-from-src',
      comment:
        'The timeline page (web/) runs in the browser: it takes the wire types from src with `import type`, ' +
        'which the compiler erases, and never a value, which would pull server code into the page.',
      severity: 'error',
      from: { path: '^web/' },
      to: { path: '^src/', dependencyTypesNot: ['type-only'] },
    },
    {
      name: 'nothing-imports-web',
      comment: 'The page is served as files (dist/web/), never imported: the library, the surfaces and the commands know it only by its URL.',
      severity: 'error',
      from: { path: '^(src|commands)/' },
      to: { path: '^web/' },
    },
    {
      name: 'render-is-a-vertical',
      comment:
        'Scene rendering is a vertical of its own beside the annotation layers: the service, the surfaces over it (HTTP, MCP), ' +
        'the processors, the stores and the op-log never import it, not even its types. Only the CLI and the library entry reach it.',
      severity: 'error',
      from: { path: '^src/(service|server|mcp|processors|store|oplog)/' },
      to: { path: '^src/render/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.js'], exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
  },
};
