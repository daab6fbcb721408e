/**
 * The minion's own event bus (Salt's `minion_event_<hash>_pub.ipc` and `_pull.ipc` in the
 * minion's `sock_dir`, `<hash>` the first ten hex digits of the id's SHA-256): a `salt-call` on
 * the same host reaches the running minion through it. Today it carries the schedule module's
 * `manage_schedule` calls (Salt's schedule module fires them there and waits for the
 * minion's `..._complete` answer); each call names the tag its answer is fired under. And
 * `environ_setenv` events, which set variables in the minion's own environment. And
 * `_salt_error` events (minion/salt-error-event.ts), which go on to the master as Salt's
 * `Minion.handle_event` forwards them.
 */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod } from 'node:fs/promises';
import type { Logger } from 'pino';
import { ipcAddress, parseEndpoint } from '../kernel/bus/address.js';
import { type EventBusAddresses, EventFirer, EventListener } from '../kernel/bus/event-bus.js';
import type { EventPublisher } from '../kernel/bus/event-publisher.js';
import { ENVIRON_SETENV_TAG } from './environ-setenv.js';
import { SALT_ERROR_TAG } from './salt-error-event.js';
import { bindEventBus } from './salt-ipc-pub.js';

/** The tag a `manage_schedule` call is fired under, as Salt's schedule module fires it. */
export const MANAGE_SCHEDULE_TAG = 'manage_schedule';
/** Where the answers go: `<prefix><unique part>`. */
const ANSWER_PREFIX = 'tsalt/minion/schedule_answer/';

/** Minion `id`'s bus under `sockDir`, with Salt's socket names. */
export function minionEventAddresses(sockDir: string, id: string): EventBusAddresses {
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 10);
  return {
    pub: ipcAddress(sockDir, `minion_event_${hash}_pub.ipc`),
    pull: ipcAddress(sockDir, `minion_event_${hash}_pull.ipc`),
  };
}

export interface LocalBus {
  close(): Promise<void>;
}

const isMap = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Binds the bus and answers the `manage_schedule` calls fired on it with `manage`. Undefined
 * (logged) when the sockets cannot be bound: the minion runs on without it.
 */
export async function startLocalBus(o: {
  sockDir: string;
  id: string;
  log: Logger;
  manage(call: Readonly<Record<string, unknown>>): Promise<Record<string, unknown>>;
  /** An `environ_setenv` event's data (minion/environ-setenv.ts). */
  setenv(data: Readonly<Record<string, unknown>>): void;
  /** An event to send on to the master bus (a `_salt_error...` one): its tag and data as fired. */
  forward(tag: string, data: Readonly<Record<string, unknown>>): void;
}): Promise<LocalBus | undefined> {
  const addrs = minionEventAddresses(o.sockDir, o.id);
  let bus: EventPublisher | undefined;
  try {
    // Salt's own listeners (salt.utils.event.get_event) may read it too (salt-ipc-pub.ts)
    bus = await bindEventBus(addrs, { log: o.log });
    // whoever may fire here may add scheduled jobs: the minion's user only
    for (const a of [addrs.pub, addrs.pull]) {
      const path = parseEndpoint(a).path;
      if (path) await chmod(path, 0o600);
    }
  } catch (err) {
    o.log.warn({ err: (err as Error).message }, 'the minion event bus could not be bound');
    bus?.close();
    return undefined;
  }
  const running = bus.run();
  const listener = new EventListener(addrs, [MANAGE_SCHEDULE_TAG, ENVIRON_SETENV_TAG, SALT_ERROR_TAG], {
    reportLag: false,
  });
  const firer = new EventFirer(addrs);
  void (async () => {
    for await (const ev of listener) {
      if (ev.tag.startsWith(SALT_ERROR_TAG)) {
        o.forward(ev.tag, ev.data);
        continue;
      }
      if (ev.tag === ENVIRON_SETENV_TAG) {
        const { _stamp, ...data } = ev.data;
        o.setenv(data);
        continue;
      }
      if (ev.tag !== MANAGE_SCHEDULE_TAG) continue;
      const answerTag = ev.data.answer_tag;
      const { answer_tag: _tag, _stamp, ...call } = ev.data;
      let answer: Record<string, unknown>;
      try {
        answer = await o.manage(call);
      } catch (err) {
        answer = { complete: false, errors: [(err as Error).message] };
      }
      if (typeof answerTag === 'string' && answerTag.startsWith(ANSWER_PREFIX)) firer.fire(answerTag, answer);
    }
  })();
  return {
    async close() {
      listener.close();
      await firer.close(0);
      bus.close();
      await running;
    },
  };
}

/**
 * Serves one `manage_schedule` call in the minion running on this host (for `salt-call`):
 * its answer, or a rejection when no minion runs here or it does not answer in `timeoutMs`
 * (Salt's schedule module waits 30 s for the complete event).
 */
export async function askRunningMinion(
  sockDir: string,
  id: string,
  call: Readonly<Record<string, unknown>>,
  timeoutMs = 30_000,
): Promise<Record<string, unknown>> {
  const addrs = minionEventAddresses(sockDir, id);
  const pull = parseEndpoint(addrs.pull).path;
  if (!pull || !existsSync(pull)) throw new Error(`no minion ${id} runs on this host (${pull} is missing)`);
  const answerTag = `${ANSWER_PREFIX}${process.pid}-${Date.now()}-${Math.random().toString(36).slice(2, 10)}`;
  const listener = new EventListener(addrs, [answerTag], { reportLag: false });
  const firer = new EventFirer(addrs);
  try {
    await listener.ready(Math.min(timeoutMs, 5000));
    firer.fire(MANAGE_SCHEDULE_TAG, { ...call, answer_tag: answerTag });
    const events = listener[Symbol.asyncIterator]();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), timeoutMs);
    });
    for (;;) {
      const next = await Promise.race([events.next(), timeout]);
      if (!next || next.done) throw new Error(`minion ${id} did not answer the schedule call`);
      if (next.value.tag !== answerTag) continue;
      clearTimeout(timer);
      const { _stamp, ...answer } = next.value.data;
      return isMap(answer) ? answer : {};
    }
  } finally {
    listener.close();
    await firer.close(0);
  }
}
