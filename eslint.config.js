import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'build/**', 'node_modules/**', 'coverage/**', '.annot-cache/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly', console: 'readonly', Buffer: 'readonly', URL: 'readonly',
        setTimeout: 'readonly', clearTimeout: 'readonly', setInterval: 'readonly', clearInterval: 'readonly',
        setImmediate: 'readonly', AbortController: 'readonly', AbortSignal: 'readonly', TextDecoder: 'readonly',
        TextEncoder: 'readonly', performance: 'readonly', structuredClone: 'readonly', fetch: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The timeline page runs in the browser: types from src only (dependency-cruiser holds the same rule).
    files: ['web/**/*.ts'],
    languageOptions: {
      globals: {
        window: 'readonly', document: 'readonly', sessionStorage: 'readonly', requestAnimationFrame: 'readonly',
        EventSource: 'readonly', HTMLElement: 'readonly', KeyboardEvent: 'readonly', MouseEvent: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['../src/*', '../../src/*'], allowTypeImports: true, message: 'web/ takes only types from src (import type): server code never goes to the browser.' }],
      }],
    },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
