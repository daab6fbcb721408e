import { describe, expect, it } from 'vitest';
import { moduleArgString, parseCallOutput } from './_ansible-call.js';
import { ansibleAliases } from './ansible.js';

describe('ansible.call helpers', () => {
  it("joins positionals and keywords as Salt's -a string (JSON values)", () => {
    expect(moduleArgString(['a b', 1], { data: 'x', flag: true, __pub_jid: '1' })).toBe(
      '"a b" 1 data="x" flag=true',
    );
    // the ansible.call state hands its keywords in __pub_arg
    expect(moduleArgString([], { __pub_arg: [['ignored'], { data: 'y' }] })).toBe('data="y"');
  });

  it('reads the three shapes of ansible output', () => {
    const json =
      'localhost | SUCCESS => {\n    "changed": false,\n    "invocation": {},\n    "ping": "pong"\n}\n';
    expect(parseCallOutput(json, '')).toEqual({ ping: 'pong' });
    expect(parseCallOutput('localhost | CHANGED | rc=0 >>\nhi\nthere', '')).toEqual({ output: 'hi\nthere' });
    expect(parseCallOutput('plain text\n', '')).toEqual({ output: 'plain text\n' });
    expect(parseCallOutput('localhost | SUCCESS => {\nnot json', 'warn')).toEqual({
      Error: 'warn',
      Output: 'localhost | SUCCESS => {\nnot json',
    });
  });

  it("names Ansible modules as Salt's __virtual__ does", () => {
    const names = ansibleAliases({
      'ansible.builtin.ping': 'Try to connect',
      'ansible.builtin.command': 'Run',
      'community.general.foo': 'Foo',
      'ansible.builtin.help': 'Clash',
    });
    expect([...names.keys()]).toEqual([
      'builtin.ping',
      'ping',
      'builtin.command',
      'command',
      'community.general.foo',
      'builtin.help',
    ]);
    expect(names.get('ping')).toEqual(['ansible.builtin.ping', 'Try to connect']);
  });
});
