// ESLint: typescript-eslint's recommended rules over the TypeScript sources; Prettier owns the formatting.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['dist/**', 'docs/**', 'coverage/**', 'node_modules/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,js,mjs,cjs}'],
    languageOptions: { globals: globals.node },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // A model is known by its class, and `entity.constructor` is typed Function: descriptors take that type.
      '@typescript-eslint/no-unsafe-function-type': 'off',
      // The statics read `arguments` to refuse arguments an untyped caller adds (find(id, options), say).
      'prefer-rest-params': 'off',
    },
  },
  {
    // Tests, benchmarks and tools load modules afresh with require() and hand the API deliberately bad input.
    files: ['tests/**', 'bench/**', 'tools/**'],
    rules: {
      '@typescript-eslint/no-require-imports': 'off',
      '@typescript-eslint/no-explicit-any': 'off',
      'no-sparse-arrays': 'off',
    },
  },
);
