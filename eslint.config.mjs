import nx from '@nx/eslint-plugin';

export default [
  ...nx.configs['flat/base'],
  ...nx.configs['flat/typescript'],
  { ignores: ['**/dist', '**/node_modules', '**/generated/**', '.cache/**'] },
  {
    files: ['**/*.ts'],
    rules: {
      // Tags live in each project.json; this is what keeps services from importing each other.
      '@nx/enforce-module-boundaries': [
        'error',
        {
          enforceBuildableLibDependency: true,
          allow: [],
          depConstraints: [
            { sourceTag: 'type:app', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:platform'] },
            { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:testing'] },
            { sourceTag: 'type:platform', onlyDependOnLibsWithTags: ['type:contracts', 'type:util', 'type:platform'] },
            { sourceTag: 'type:contracts', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'type:testing', onlyDependOnLibsWithTags: ['type:util', 'type:contracts'] },
            { sourceTag: 'type:util', onlyDependOnLibsWithTags: ['type:util'] },
            { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:gateway'] },
            { sourceTag: 'scope:withdrawals', onlyDependOnLibsWithTags: ['scope:shared', 'scope:withdrawals'] },
            { sourceTag: 'scope:events', onlyDependOnLibsWithTags: ['scope:shared', 'scope:events'] },
            { sourceTag: 'scope:pix-keys', onlyDependOnLibsWithTags: ['scope:shared', 'scope:pix-keys'] },
            { sourceTag: 'scope:customers', onlyDependOnLibsWithTags: ['scope:shared', 'scope:customers'] },
            { sourceTag: 'scope:inflows', onlyDependOnLibsWithTags: ['scope:shared', 'scope:inflows'] },
            { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
          ],
        },
      ],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
];
