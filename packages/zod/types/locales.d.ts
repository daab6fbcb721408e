export * from 'zod-upstream/v4/locales';
