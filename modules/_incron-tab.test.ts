import { describe, expect, it } from 'vitest';
import { badMask, parseIncronTab, placeJob, renderIncronTab } from './_incron-tab.js';

describe('incrontab model', () => {
  const tab = parseIncronTab('/a IN_MODIFY echo  $@ now\n# note\n/b IN_CREATE,IN_DELETE run\n');

  it('splits jobs (more than three words) from the other lines, the command rejoined by single spaces', () => {
    // "/b IN_CREATE,IN_DELETE run" has three words: Salt keeps it as a plain line
    expect(tab).toEqual({
      crons: [{ path: '/a', mask: 'IN_MODIFY', cmd: 'echo $@ now' }],
      pre: ['# note', '/b IN_CREATE,IN_DELETE run'],
    });
  });

  it('renders the plain lines first, then the jobs', () => {
    expect(renderIncronTab(tab).join('')).toBe(
      '# note\n/b IN_CREATE,IN_DELETE run\n/a IN_MODIFY echo $@ now\n',
    );
  });

  it('places a job: present for the same masks, updated when one mask is shared, else appended', () => {
    expect(placeJob(tab, { path: '/a', mask: 'IN_MODIFY', cmd: 'echo $@ now' })).toBe('present');
    expect(placeJob(tab, { path: '/a', mask: 'IN_MODIFY,IN_ATTRIB', cmd: 'echo $@ now' })).toMatchObject({
      updated: true,
      crons: [{ path: '/a', mask: 'IN_MODIFY,IN_ATTRIB' }],
    });
    expect(placeJob(tab, { path: '/a', mask: 'IN_ATTRIB', cmd: 'echo $@ now' })).toMatchObject({
      updated: false,
    });
  });

  it('names the first unknown mask', () => {
    expect(badMask('IN_MODIFY,IN_NOPE,IN_X')).toBe('Invalid mask type: IN_NOPE');
    expect(badMask('IN_ALL_EVENTS')).toBeUndefined();
  });
});
