/**
 * The master's event bus as the console sees it: one `GET /events` stream (server-sent
 * events, authenticated by the session cookie) shared by every view, reopened by the browser
 * when it drops.
 */

export interface BusEvent {
  readonly tag: string;
  readonly data: Record<string, unknown>;
}

type Listener = (ev: BusEvent) => void;

let source: EventSource | undefined;
let opened: Promise<void> | undefined;
const listeners = new Set<Listener>();

function dispatch(msg: MessageEvent<string>): void {
  let ev: BusEvent;
  try {
    ev = JSON.parse(msg.data) as BusEvent;
  } catch {
    return;
  }
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

export function closeStream(): void {
  source?.close();
  source = undefined;
  opened = undefined;
}

/** Calls `listener` for every event until the returned function is called. */
export function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}
