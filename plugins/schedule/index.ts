export { type CronSpec, CronSyntaxError, nextCronTime, parseCron } from './cron.js';
export { DEFAULT_TIME_FMT, parseDate, strptime } from './dates.js';
export { SCHEDULE_CONF } from './job-check.js';
export { scheduleOptions } from './options.js';
export { readScheduleFile, scheduleFile, writeScheduleFile } from './schedule-file.js';
export { schedulePlugin } from './schedule-plugin.js';
export { type ScheduledRun, Scheduler, type SchedulerClock, type SchedulerOptions } from './scheduler.js';
