export * from 'zod-upstream/mini';
export { z } from 'zod-upstream/mini';
