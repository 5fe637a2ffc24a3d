// Lint rules, including the process boundaries (STYLE.md, practice 2):
// shared/ imports no Node, Electron or DOM; renderer/ imports no Node or Electron;
// only the files listed in ELECTRON_IMPORTERS may import `electron`.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';

const NODE_BUILTINS = [
  'node:*', 'fs', 'fs/*', 'path', 'os', 'child_process', 'crypto', 'http', 'https', 'net', 'stream', 'stream/*',
  'url', 'util', 'events', 'worker_threads', 'zlib', 'buffer', 'process', 'tls', 'dns', 'readline',
];
const nodePatterns = NODE_BUILTINS.map((name) => ({ group: [name], message: 'Node APIs are not available here.' }));
const electronPattern = { group: ['electron', 'electron/*'], message: 'Only the Electron shell files may import electron.' };
const nodeLibraries = ['keytar', 'chokidar', 'undici', 'busboy', 'pino', 'file-type'].map((name) => ({
  group: [name],
  message: 'A Node-only library.',
}));

/** The few files that touch Electron itself; everything else under electron/ is plain Node. */
export const ELECTRON_IMPORTERS = ['electron/main.ts', 'electron/preload.ts', 'electron/shell/**/*.ts'];

export default tseslint.config(
  { ignores: ['node_modules', '.tools', 'dist', 'dist-electron', 'release', 'test-results', 'coverage'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
    },
  },
  {
    files: ['shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: [...nodePatterns, electronPattern, ...nodeLibraries, { group: ['react', 'react-dom', 'zustand'], message: 'shared/ is UI-free.' }] }],
      'no-restricted-globals': ['error', 'window', 'document', 'navigator', 'process', 'Buffer', 'require'],
    },
  },
  {
    files: ['renderer/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': ['error', { patterns: [...nodePatterns, electronPattern, ...nodeLibraries] }],
      'no-restricted-globals': ['error', 'process', 'Buffer', 'require'],
    },
  },
  {
    files: ['electron/**/*.ts'],
    ignores: ELECTRON_IMPORTERS,
    rules: { 'no-restricted-imports': ['error', { patterns: [electronPattern] }] },
  },
);
