import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'schema/**', 'coverage/**', 'bench/**/*.js', 'jest.config.js'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  {
    // The build bundles nest-commander into the shim's output; anything importing the package
    // directly would need it installed in every embedding application.
    files: ['src/**/*.ts'],
    ignores: ['src/cli/nest-commander.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            { name: 'nest-commander', message: 'Import from src/cli/nest-commander.ts (bundled at build).' },
          ],
        },
      ],
    },
  },
  {
    // docs/spec/inspector.md §3: agent text never becomes markup in the page.
    files: ['inspector/**/*.ts', 'inspector/**/*.tsx'],
    rules: {
      'no-restricted-properties': [
        'error',
        { property: 'innerHTML', message: 'Render text nodes; agent content is never HTML.' },
        { property: 'outerHTML', message: 'Render text nodes; agent content is never HTML.' },
        { property: 'insertAdjacentHTML', message: 'Render text nodes; agent content is never HTML.' },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']",
          message: 'Agent content is never HTML.',
        },
      ],
    },
  },
  {
    files: ['test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
);
