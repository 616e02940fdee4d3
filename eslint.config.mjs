import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', '.rosetta/**', 'coverage/**', 'test-output/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.jest } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { prefer: 'type-imports', disallowTypeAnnotations: false, fixStyle: 'inline-type-imports' }],
      'no-console': 'error',
    },
  },
  {
    // Nest resolves constructor parameters from emitted metadata, so injected classes must be
    // value imports even when only used as types.
    files: ['**/*.controller.ts', '**/*.service.ts', '**/*.guard.ts', '**/*.module.ts', '**/*.repository.ts', '**/*.filter.ts', '**/*.middleware.ts', '**/*.interceptor.ts', '**/*.cache.ts', '**/*.bus.ts', '**/*.adapter.ts'],
    rules: { '@typescript-eslint/consistent-type-imports': 'off' },
  },
  // The dashboard runs in the browser.
  { files: ['apps/dashboard/src/**/*.{ts,tsx}'], languageOptions: { globals: { ...globals.browser } } },
  { files: ['test/**/*.ts', '**/*.spec.ts'], rules: { '@typescript-eslint/no-explicit-any': 'off' } },
  { files: ['scripts/**/*.js', 'test/support/*.js', '*.js'], rules: { '@typescript-eslint/no-require-imports': 'off', 'no-console': 'off' } },
);
