/**
 * A request's events as bus frames, trimmed where they are made when the request was too large
 * for them to fit `max_event_size`. The event publisher would trim them the same way
 * (kernel/bus/event-guard.ts, Salt's `dicttrim.trim_dict` in `SaltEvent.fire_event`), but only
 * after the request server had packed the whole event (a 150 MB return: three copies of it,
 * packed, framed and queued) to send it there. Salt trims in the firing process too.
 */
import type { Logger } from 'pino';
import { eventStamp, stampedEventBody } from '../kernel/bus/event-body.js';
import { DROPPED_TAG, type GuardTrace, TRIMMED_TAG, trimEvent } from '../kernel/bus/event-guard.js';
import type { Effects } from './handlers/context.js';

/**
 * The frames of `events`, made by a request of `requestBytes`. Up to twice `maxEventSize` they
 * are packed whole (the publisher guards them); past it no event that carries the request's load
 * fits, and each is trimmed (or dropped) here, with the publisher's trace event and log line.
 */
export function boundedEventBodies(
  events: Effects['events'],
  requestBytes: number,
  maxEventSize: number,
  log: Logger,
): Buffer[] {
  const out: Buffer[] = [];
  for (const { tag, data } of events) {
    try {
      if (requestBytes <= 2 * maxEventSize) {
        out.push(stampedEventBody(tag, data));
        continue;
      }
      const body = trimEvent(tag, { ...data, _stamp: eventStamp() }, maxEventSize);
      const trace: GuardTrace = {
        tag,
        size: requestBytes,
        max_event_size: maxEventSize,
        reason: 'too-large',
      };
      // a dropped one is logged by the publisher when its trace reaches it
      if (!body) out.push(stampedEventBody(DROPPED_TAG, { ...trace }));
      if (!body) continue;
      out.push(body, stampedEventBody(TRIMMED_TAG, { ...trace, trimmed_size: body.length }));
      log.warn(
        { ...trace, trimmed_size: body.length },
        `event bus: trimmed large values of event ${tag}: a request of ${requestBytes} bytes is over max_event_size ${maxEventSize}`,
      );
    } catch (err) {
      log.warn({ err: (err as Error).message, tag }, 'event not sent: it cannot be encoded');
    }
  }
  return out;
}
