/**
 * Named tap stages (lower runs first). Use these instead of `before: 'OtherPlugin'`.
 */
export const STAGE_EARLY = -100;
export const STAGE_DEFAULT = 0;
/** External returners (`--return`, `event_return`). */
export const STAGE_RETURNERS = 20;
export const STAGE_LATE = 100;
