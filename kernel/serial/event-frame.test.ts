import { describe, expect, it } from 'vitest';
import { SaltError } from '../errors.js';
import { packIpc } from './encoder.js';
import {
  decodeEventBody,
  decodeIpcMessage,
  encodeEventBody,
  encodeIpcMessage,
  toIpcMessage,
} from './event-frame.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(SaltError);
    return (err as SaltError).code;
  }
  return undefined;
}

describe('event bodies', () => {
  it('are tag + "\\n\\n" + packIpc(data) and read back', () => {
    const body = encodeEventBody('salt/job/1/ret/vm1', { id: 'vm1', b: Buffer.from([0]) });
    expect(body.subarray(0, 20).toString('latin1')).toBe('salt/job/1/ret/vm1\n\n');
    expect(body.subarray(20)).toEqual(packIpc({ id: 'vm1', b: Buffer.from([0]) }));
    expect(decodeEventBody(body)).toEqual({
      tag: 'salt/job/1/ret/vm1',
      data: { id: 'vm1', b: Buffer.from([0]) },
    });
  });

  it('split at the first "\\n\\n", even when the data holds another one', () => {
    const body = encodeEventBody('ünï/tag', { text: 'a\n\nb' });
    expect(decodeEventBody(new Uint8Array(body))).toEqual({ tag: 'ünï/tag', data: { text: 'a\n\nb' } });
  });

  it('refuse bodies without separator, bad tags and bad data', () => {
    expect(codeOf(() => decodeEventBody(Buffer.from('no separator')))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => decodeEventBody(Buffer.from([0xff, 0x0a, 0x0a, 0x80])))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => decodeEventBody(Buffer.from('tag\n\n')))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => decodeEventBody(Buffer.from('tag\n\n\xc1', 'latin1')))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => encodeEventBody('', {}))).toBe('SALT_ERR_BUS_ENCODE');
    expect(codeOf(() => encodeEventBody('a\n\nb', {}))).toBe('SALT_ERR_BUS_ENCODE');
  });
});

describe('IPC messages', () => {
  it('are packIpc({head, body}) with head {} by default', () => {
    const body = Buffer.from('tag\n\n\x80', 'latin1');
    const msg = encodeIpcMessage(body);
    expect(msg.toString('hex')).toBe(
      `82a468656164 80 a4626f6479 c406${body.toString('hex')}`.replace(/ /g, ''),
    );
    expect(decodeIpcMessage(msg)).toEqual({ head: {}, body });
    expect(decodeIpcMessage(encodeIpcMessage({ cmd: 'x' }, { id: 1 }))).toEqual({
      head: { id: 1 },
      body: { cmd: 'x' },
    });
  });

  it('must be a map with a body', () => {
    expect(codeOf(() => decodeIpcMessage(packIpc([1])))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => decodeIpcMessage(packIpc({ head: {} })))).toBe('SALT_ERR_BUS_DECODE');
    expect(codeOf(() => decodeIpcMessage(packIpc(Buffer.from('x'))))).toBe('SALT_ERR_BUS_DECODE');
    expect(toIpcMessage(new Map([['body', 1]]))).toEqual({ head: {}, body: 1 });
    expect(toIpcMessage({ body: null, head: 'h' })).toEqual({ head: 'h', body: null });
  });
});
