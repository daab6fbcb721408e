/**
 * The control messages a managed child sends its ProcessManager over the IPC channel.
 * Any other message a child sends is passed through as a `'message'` event.
 */

import { SALT_ERR_PROCESS_CHILD_START } from '../errors.js';
import { isRecord } from '../guards.js';

/** The child finished starting (sockets bound, workers up). */
export interface ReadyMessage {
  type: 'ready';
}

/** The child cannot work (e.g. its port is busy); it exits after sending this. */
export interface FatalMessage {
  type: 'fatal';
  code: string;
  message: string;
}

/** The typed union of child → parent control messages. */
export type ChildControlMessage = ReadyMessage | FatalMessage;

/** Narrows a raw IPC message to a control message; anything else is an application message. */
export function parseControlMessage(value: unknown): ChildControlMessage | undefined {
  if (!isRecord(value)) return undefined;
  if (value.type === 'ready') return { type: 'ready' };
  if (value.type === 'fatal') {
    const code =
      typeof value.code === 'string' && value.code !== '' ? value.code : SALT_ERR_PROCESS_CHILD_START.code;
    const message = typeof value.message === 'string' ? value.message : String(value.message);
    return { type: 'fatal', code, message };
  }
  return undefined;
}
