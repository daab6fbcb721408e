import { describe, expect, it } from 'vitest';
import { parseActive, parseProfiles } from './tuned.js';

// tuned-adm's text with its daemon running (tuned/admin/admin.py prints these lines)
const LISTED = `Available profiles:
- balanced                    - General non-specialized tuned profile
- virtual-guest               - Optimize for running inside a virtual guest
Current active profile: virtual-guest`;

describe("tuned's reading of tuned-adm", () => {
  it('lists the profiles between the header and the active-profile line', () => {
    expect(parseProfiles(LISTED)).toEqual(['balanced', 'virtual-guest']);
    // tuned 2.4's lines have no description
    expect(
      parseProfiles('Available profiles:\n- balanced\n- powersave\nCurrent active profile: balanced\n'),
    ).toEqual(['balanced', 'powersave']);
  });

  it('cuts the collected warnings and the line before them off', () => {
    const warned = `${LISTED}\n\n** COLLECTED WARNINGS **\nsome warning\n** END OF WARNINGS **`;
    expect(parseProfiles(warned)).toEqual(['balanced', 'virtual-guest']);
    // with no blank line before them, Salt's cut takes the active-profile line's neighbour too
    expect(parseProfiles(`${LISTED}\n** COLLECTED WARNINGS **\nw`)).toEqual(['balanced']);
  });

  it("fails as Salt's does on the daemon-less text (its first line is no header)", () => {
    const daemonless = `Cannot talk to TuneD daemon via DBus. Is TuneD daemon running?\n${LISTED.replace(
      /Current active profile: .*/,
      'No current active profile.',
    )}`;
    expect(() => parseProfiles(daemonless)).toThrow('list index out of range');
    expect(() => parseProfiles('')).toThrow('pop from empty list');
  });

  it("reads the active profile from the first line, or fails as Salt's match does", () => {
    expect(parseActive('Current active profile: virtual-guest\n')).toBe('virtual-guest');
    expect(parseActive('Current active profile: balanced powersave')).toBe('balanced powersave');
    expect(() => parseActive('Preset profile: virtual-guest')).toThrow(
      "'NoneType' object has no attribute 'group'",
    );
  });
});
