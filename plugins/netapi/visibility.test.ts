import { describe, expect, it } from 'vitest';
import { eventFilter, seesEverything } from './visibility.js';

const jid = '20261122103949838369';
const ev = (tag: string) => ({ tag, data: {} });
const owners = (j: string) => (j === jid ? 'alice' : 'bob');

describe('event visibility', () => {
  it('admins (.* or @events) see everything, restricted by tag prefixes when asked', () => {
    expect(seesEverything({ authList: ['.*'] })).toBe(true);
    expect(seesEverything({ authList: ['@events', 'test.*'] })).toBe(true);
    const f = eventFilter({ user: 'root', authList: ['.*'] }, owners, ['salt/job/']);
    expect(f(ev(`salt/job/${jid}/new`))).toBe(true);
    expect(f(ev('salt/auth'))).toBe(false);
    expect(eventFilter({ user: 'root', authList: ['.*'] }, owners)(ev('salt/auth'))).toBe(true);
  });
  it('other users see only the events of their own jobs', () => {
    const alice = eventFilter({ user: 'alice', authList: ['test.*'] }, owners);
    expect(alice(ev(`salt/job/${jid}/ret/m0`))).toBe(true);
    expect(alice(ev(`salt/run/${jid}/ret`))).toBe(true);
    expect(alice(ev('salt/job/20261122103949838370/ret/m0'))).toBe(false);
    expect(alice(ev('salt/auth'))).toBe(false);
    expect(alice(ev('minion_start'))).toBe(false);
    expect(alice(ev(jid))).toBe(false);
  });
});
