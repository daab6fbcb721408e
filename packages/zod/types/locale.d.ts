export { default } from 'zod-upstream/v4/locales/en.js';
