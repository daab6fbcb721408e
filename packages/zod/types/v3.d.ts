export * from 'zod-upstream/v3';
export { default } from 'zod-upstream/v3';
