export * from 'zod-upstream/v4';
export { default } from 'zod-upstream/v4';
