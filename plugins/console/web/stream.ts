/**
 * The master's event bus as the console sees it: one `GET /events` stream (server-sent
 * events, authenticated by the session cookie) shared by every view, reopened by the browser
 * when it drops.
 */

export interface BusEvent {
  readonly tag: string;
  readonly data: Record<string, unknown>;
}

/** An event as received: its order number and arrival time (`HH:MM:SS.mmm`, UTC). */
export interface ReceivedEvent extends BusEvent {
  readonly n: number;
  readonly at: string;
}

/** How many of the latest events are kept for a view that opens later (the events tail). */
export const RECENT_KEPT = 500;
const recent: ReceivedEvent[] = [];
let received = 0;

type Listener = (ev: ReceivedEvent) => void;

let source: EventSource | undefined;
let opened: Promise<void> | undefined;
const listeners = new Set<Listener>();

function dispatch(msg: MessageEvent<string>): void {
  let raw: BusEvent;
  try {
    raw = JSON.parse(msg.data) as BusEvent;
  } catch {
    return;
  }
  const ev: ReceivedEvent = {
    tag: raw.tag,
    data: raw.data,
    n: received++,
    at: new Date().toISOString().slice(11, 23),
  };
  recent.push(ev);
  if (recent.length > RECENT_KEPT) recent.splice(0, recent.length - RECENT_KEPT);
  for (const l of listeners) l(ev);
}

/** Opens the stream (once); resolves when the server has subscribed it to the bus. */
export function openStream(): Promise<void> {
  if (source && opened) return opened;
  const es = new EventSource('/events', { withCredentials: true });
  source = es;
  es.onmessage = dispatch;
  opened = new Promise<void>((resolve, reject) => {
    es.onopen = () => resolve();
    es.onerror = () => {
      if (es.readyState === EventSource.CLOSED) reject(new Error('the event stream was refused'));
    };
  });
  opened.catch(() => closeStream());
  return opened;
}

/** The latest events, oldest first. */
export function recentEvents(): readonly ReceivedEvent[] {
  return recent;
}

export function closeStream(): void {
  recent.length = 0;
  source?.close();
  source = undefined;
  opened = undefined;
}

/** Calls `listener` for every event until the returned function is called. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
