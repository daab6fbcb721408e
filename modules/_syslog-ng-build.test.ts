// Expected texts are what Salt 3006.18's syslog_ng.config returned for the same input (measured).
import { describe, expect, it } from 'vitest';
import { buildSyslogNgConfig } from './_syslog-ng-build.js';

describe("syslog-ng config text as Salt's syslog_ng.config builds it", () => {
  it('builds a named statement from the config key, or from a <type>.<id> name', () => {
    expect(buildSyslogNgConfig('s_local', { source: [{ tcp: [{ ip: '127.0.0.1' }, { port: 1233 }] }] })).toBe(
      'source s_local {\n    tcp(\n        ip(\n            127.0.0.1\n        ),\n        port(\n            1233\n        )\n    );\n};\n',
    );
    expect(
      buildSyslogNgConfig('d_file', {
        destination: [{ file: ['"/var/log/messages"', { owner: 'root' }, { perm: '0640' }] }],
      }),
    ).toBe(
      'destination d_file {\n    file(\n        "/var/log/messages",\n        owner(\n            root\n        ),\n        perm(\n            0640\n        )\n    );\n};\n',
    );
    expect(buildSyslogNgConfig('f_empty', { filter: [] })).toBe('filter f_empty {\n};\n');
  });

  it("nests typed values (tls's key_file), and writes values as Python's str()", () => {
    const tls = { tls: [{ key_file: '"/k"' }, { cert_file: ['"/c"', 'x'] }, 'plain'] };
    expect(
      buildSyslogNgConfig('s_tls', { source: [{ tcp: [{ ip: '0.0.0.0' }, { port: 1999 }, tls] }] }),
    ).toBe(
      'source s_tls {\n    tcp(\n        ip(\n            0.0.0.0\n        ),\n        port(\n            1999\n        ),\n        tls(\n            key_file(\n                "/k"\n            ),\n            cert_file(\n                "/c"\n                x\n            ),\n            plain\n        )\n    );\n};\n',
    );
    expect(
      buildSyslogNgConfig('options.global', [
        { time_reap: 30 },
        { use_dns: true },
        { frac: 1.5 },
        { stats: [] },
      ]),
    ).toBe(
      'options {\n    time_reap(\n        30\n    );\n    use_dns(\n        True\n    );\n    frac(\n        1.5\n    );\n    stats(\n    );\n};\n',
    );
  });

  it('drops what Salt drops: empty strings, mappings and lists as typed values', () => {
    const match = [{ value: '' }, { program: ['a', { nested: { deep: 1 } }, ['l']] }, { x: { y: 1 } }];
    expect(buildSyslogNgConfig('f_typed', { filter: [{ match }] })).toBe(
      'filter f_typed {\n    match(\n        value(\n        ),\n        program(\n            a,\n            nested(\n            )\n        ),\n        x(\n        )\n    );\n};\n',
    );
    expect(buildSyslogNgConfig('p', { parser: [{ csv: { columns: 1 } }] })).toBe(
      'parser p {\n    csv(\n        columns\n    );\n};\n',
    );
  });

  it('builds log paths with references, inline statements and junctions', () => {
    const log = [
      { source: 's_in' },
      { destination: [{ file: '"/tmp/x"' }] },
      {
        junction: [
          { channel: [{ filter: 'f1' }, { destination: 'd1' }, { parser: [{ csv: [] }] }] },
          { channel: [{ destination: 'd2' }] },
        ],
      },
      { flags: 'final' },
    ];
    expect(buildSyslogNgConfig('l2', { log })).toBe(
      'log {\n    source(\n        s_in\n    );\n    destination {\n        file(\n            "/tmp/x"\n        );\n    };\n    junction {\n        channel {\n            filter(\n                f1\n            );\n            destination(\n                d1\n            );\n            parser {\n                csv(\n                );\n            };\n        };\n        channel {\n            destination(\n                d2\n            );\n        };\n    };\n    flags(\n        final\n    );\n};\n',
    );
  });

  it('passes a config: text through, and fails as Python does on other shapes', () => {
    expect(buildSyslogNgConfig('raw', { config: 'source s { internal(); };' })).toBe(
      'source s { internal(); };\n',
    );
    expect(buildSyslogNgConfig('config.manual', '@version: 3.6')).toBe('@version: 3.6\n');
    expect(() => buildSyslogNgConfig('bad', ['a'])).toThrow(
      "AttributeError: 'list' object has no attribute 'keys'",
    );
    expect(() => buildSyslogNgConfig('source.bad', ['tcp'])).toThrow(
      "AttributeError: 'str' object has no attribute 'keys'",
    );
    expect(() => buildSyslogNgConfig('bad', { config: 5 })).toThrow(
      "TypeError: unsupported operand type(s) for +: 'int' and 'str'",
    );
  });
});
