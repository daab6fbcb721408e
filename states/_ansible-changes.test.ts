import { describe, expect, it } from 'vitest';
import { playChanges } from './_ansible-changes.js';

describe('ansible.playbooks changes', () => {
  it('keeps changed (diff, else changes) and failed/skipped hosts (results, else msg), per play and task', () => {
    const doc = {
      plays: [
        {
          play: { name: 'p1' },
          tasks: [
            { task: { name: 'same' }, hosts: { h1: { changed: false } } },
            {
              task: { name: 'diffed' },
              hosts: { h1: { changed: true, diff: { before: 'a' } }, h2: { changed: true } },
            },
            {
              task: { name: 'broke' },
              hosts: { h1: { failed: true, msg: 'boom' }, h2: { skipped: true, results: [1] } },
            },
          ],
        },
        { play: { name: 'quiet' }, tasks: [{ task: { name: 't' }, hosts: { h1: { changed: false } } }] },
      ],
    };
    expect(playChanges(doc)).toEqual({
      p1: { diffed: { h1: { before: 'a' }, h2: {} }, broke: { h1: 'boom', h2: [1] } },
    });
  });
});
