import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { guardFrame, TRIMMED_TAG, VALUE_TRIMMED } from '../kernel/bus/event-guard.js';
import { decodeEventBody } from '../kernel/serial/index.js';
import { boundedEventBodies } from './bounded-events.js';

const MAX = 64 * 1024;
const quiet = pino({ level: 'silent' });

describe('boundedEventBodies', () => {
  it('packs the events of a request up to twice max_event_size whole (the publisher guards them)', () => {
    const data = { id: 'm1', return: 'x'.repeat(MAX + 10) };
    const [body, ...rest] = boundedEventBodies([{ tag: 'salt/job/1/ret/m1', data }], 2 * MAX, MAX, quiet);
    expect(rest).toEqual([]);
    expect(decodeEventBody(body!).data).toMatchObject(data);
  });

  it("trims a larger request's event as the publisher would, with its trace event", () => {
    const data = {
      id: 'm1',
      jid: '1',
      return: { args: ['y'.repeat(3 * MAX)] },
      fun_args: ['y'.repeat(3 * MAX)],
    };
    const [body, trace] = boundedEventBodies([{ tag: 'salt/job/1/ret/m1', data }], 7 * MAX, MAX, quiet);
    expect(body!.length).toBeLessThanOrEqual(MAX);
    expect(guardFrame(body!, MAX)).toEqual({ action: 'pass' });
    const got = decodeEventBody(body!);
    expect(got.tag).toBe('salt/job/1/ret/m1');
    expect(got.data).toMatchObject({
      id: 'm1',
      jid: '1',
      return: { args: VALUE_TRIMMED },
      fun_args: VALUE_TRIMMED,
    });
    const t = decodeEventBody(trace!);
    expect(t.tag).toBe(TRIMMED_TAG);
    expect(t.data).toMatchObject({
      tag: 'salt/job/1/ret/m1',
      reason: 'too-large',
      trimmed_size: body!.length,
    });
  });
});
