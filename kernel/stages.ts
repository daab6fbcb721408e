/**
 * Named tap stages (lower runs first). Use these instead of `before: 'OtherPlugin'`.
 */
export const STAGE_EARLY = -100;
export const STAGE_DEFAULT = 0;
/** The master job cache stores returns here, before external returners see them. */
export const STAGE_JOB_CACHE = 10;
/** External returners (`--return`, `event_return`). */
export const STAGE_RETURNERS = 20;
export const STAGE_LATE = 100;
