import { describe, expect, it } from 'vitest';
import { eventReturnOptions } from './options.js';

describe('event_return options', () => {
  it('accepts event_return as a string or a list, and defaults to none', () => {
    expect(eventReturnOptions.read({ extra: { event_return: 'pg' } }).event_return).toEqual(['pg']);
    expect(eventReturnOptions.read({ extra: { event_return: ['a', 'b'] } }).event_return).toEqual(['a', 'b']);
    expect(eventReturnOptions.read({ extra: {} })).toMatchObject({ event_return: [], event_return_queue: 0 });
  });
});
