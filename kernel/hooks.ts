/**
 * The kernel's hooks: one typed, frozen object per daemon. Only the kernel calls hooks;
 * plugins receive a tap-only view ({@link TapOnly}).
 */
import { AsyncSeriesHook, AsyncSeriesWaterfallHook, SyncHook } from 'tapable';
import type {
  JobReturn,
  MinionJob,
  MinionJobOutcome,
  PublishLoad,
  RunnerReturn,
  SaltEvent,
  StoredJob,
} from './jobs/types.js';

/** Creates the hooks of one daemon (master or minion). */
export function createKernelHooks() {
  return Object.freeze({
    /** After the config is resolved and plugins are applied, before any socket opens. Sync. @since 0.1 */
    configResolved: new SyncHook<[Readonly<Record<string, unknown>>]>(['config'], 'configResolved'),
    /**
     * Master: a job is about to be published. Waterfall: a tap may return a changed load; the
     * final load is the one stored in the job cache and sent to the minions. Throwing aborts the
     * publish and the error reaches the caller. @since 0.1
     */
    beforePublish: new AsyncSeriesWaterfallHook<[PublishLoad]>(['load'], 'beforePublish'),
    /** Master: a job was published and its load stored. A failing tap is logged and contained. @since 0.1 */
    jobPublished: new AsyncSeriesHook<[StoredJob]>(['job'], 'jobPublished'),
    /**
     * Master: a minion's return arrived, was verified and stored in the job cache. Returners
     * tap this. A failing tap is logged and does not stop the other taps. @since 0.1
     */
    returnReceived: new AsyncSeriesHook<[JobReturn]>(['ret'], 'returnReceived'),
    /**
     * Master: a runner finished, its return stored in the job cache; called in the runner's own
     * process, before `salt/run/<jid>/ret` is fired. A failing tap is logged and contained. @since 0.2
     */
    runnerReturned: new AsyncSeriesHook<[RunnerReturn]>(['ret'], 'runnerReturned'),
    /**
     * Master: the request server fired an event for a request it handled (job, return, minion,
     * sign-in and wheel events), called in the thread that handled it. Events other processes fire
     * (runners, the REST API, plugin processes) reach a plugin process that listens to the bus.
     * A failing tap is logged and contained. @since 0.1
     */
    eventFired: new SyncHook<[SaltEvent]>(['event'], 'eventFired'),
    /**
     * Minion: the grains were computed, at start and again when synced grain modules changed
     * them (the object is the minion's own: read it, do not change it). @since 0.2
     */
    grainsLoaded: new SyncHook<[Readonly<Record<string, unknown>>]>(['grains'], 'grainsLoaded'),
    /**
     * Minion: a publish matched this minion and its job is about to run. Waterfall: a tap may
     * return a changed job. Throwing refuses the job: its return to the master is the error,
     * with retcode 1. @since 0.2
     */
    beforeJob: new AsyncSeriesWaterfallHook<[MinionJob]>(['job'], 'beforeJob'),
    /**
     * Minion: a job ended and its return was sent to the master (or could not be). A failing tap
     * is logged and contained. @since 0.2
     */
    jobReturned: new AsyncSeriesHook<[MinionJob, MinionJobOutcome]>(['job', 'outcome'], 'jobReturned'),
    /** The daemon is stopping: release resources. Runs in reverse apply order. @since 0.1 */
    shutdown: new AsyncSeriesHook<[]>([], 'shutdown'),
  });
}

/** The hooks object of a daemon. */
export type KernelHooks = ReturnType<typeof createKernelHooks>;

type CallMethods = 'call' | 'callAsync' | 'promise' | 'intercept' | 'taps' | 'tapAsync';

/** A hook with its call methods, interceptors and callback-style taps removed: what plugins get. */
export type TapOnlyHook<H> = Omit<H, CallMethods>;

/** The tap-only view of all hooks. */
export type TapOnly<T> = { readonly [K in keyof T]: TapOnlyHook<T[K]> };
