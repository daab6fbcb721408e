export * from 'zod-upstream/v4/mini';
export { z } from 'zod-upstream/v4/mini';
