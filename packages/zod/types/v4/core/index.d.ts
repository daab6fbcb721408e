export * from 'zod-upstream/v4/core';
