export { type CronSpec, CronSyntaxError, nextCronTime, parseCron } from './cron.js';
export { scheduleOptions } from './options.js';
export { schedulePlugin } from './schedule-plugin.js';
export { type ScheduledRun, Scheduler, type SchedulerClock, type SchedulerOptions } from './scheduler.js';
