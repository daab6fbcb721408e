import { describe, expect, it } from 'vitest';
import { consoleEnabled } from './enabled.js';

describe('consoleEnabled', () => {
  it('is on with a REST API block and off without one', () => {
    expect(consoleEnabled({ rest_cherrypy: { port: 8000 } })).toBe(true);
    expect(consoleEnabled({ rest_tornado: { port: 8000 } })).toBe(true);
    expect(consoleEnabled({})).toBe(false);
    expect(consoleEnabled({ rest_cherrypy: null })).toBe(false);
  });

  it('console: False in the block turns it off (rest_cherrypy wins over rest_tornado)', () => {
    expect(consoleEnabled({ rest_cherrypy: { console: false } })).toBe(false);
    expect(consoleEnabled({ rest_cherrypy: { console: true } })).toBe(true);
    expect(consoleEnabled({ rest_cherrypy: { port: 1 }, rest_tornado: { console: false } })).toBe(true);
  });
});
