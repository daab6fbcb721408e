export * from 'zod-upstream';
export { z, z as default } from 'zod-upstream';
