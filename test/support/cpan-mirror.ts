/**
 * A CPAN client home and a local CPAN mirror folder for the cpan module's tests: the mirror
 * holds one small distribution, Tsalt::Hello 0.01 (index files, author list, CHECKSUMS), and
 * the client's MyConfig.pm fetches only from it and installs under `<home>/perl5`. Run cpan
 * with `HOME=<home>` and `PERL5LIB=<home>/perl5/lib/perl5`.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** Writes the mirror under `<home>/mirror` and the client config; returns PERL5LIB's folder. */
export function makeCpanHome(home: string): string {
  const mirror = join(home, 'mirror');
  const authorDir = join(mirror, 'authors/id/T/TS/TSALT');
  const dist = join(home, 'dist', 'Tsalt-Hello-0.01');
  for (const d of [
    join(home, '.cpan/CPAN'),
    join(home, '.cpan/build'),
    join(mirror, 'modules'),
    join(dist, 'lib/Tsalt'),
    authorDir,
  ])
    mkdirSync(d, { recursive: true });
  writeFileSync(join(dist, 'lib/Tsalt/Hello.pm'), 'package Tsalt::Hello;\nour $VERSION = "0.01";\n1;\n');
  writeFileSync(
    join(dist, 'Makefile.PL'),
    'use ExtUtils::MakeMaker;\nWriteMakefile(NAME => "Tsalt::Hello", VERSION_FROM => "lib/Tsalt/Hello.pm");\n',
  );
  writeFileSync(join(dist, 'MANIFEST'), 'Makefile.PL\nMANIFEST\nlib/Tsalt/Hello.pm\n');
  const tarball = join(authorDir, 'Tsalt-Hello-0.01.tar.gz');
  execFileSync('tar', ['czf', tarball, 'Tsalt-Hello-0.01'], { cwd: join(home, 'dist') });
  const data = readFileSync(tarball);
  const hex = (algo: string) => createHash(algo).update(data).digest('hex');
  writeFileSync(
    join(authorDir, 'CHECKSUMS'),
    `$cksum = {\n  q[Tsalt-Hello-0.01.tar.gz] => { md5 => q[${hex('md5')}], sha256 => q[${hex('sha256')}], size => ${data.length}, cpan_path => q[T/TS/TSALT] },\n};\n`,
  );
  writeFileSync(
    join(mirror, 'authors/01mailrc.txt.gz'),
    gzipSync('alias TSALT "Tsalt Tester <tsalt@example.com>"\n'),
  );
  writeFileSync(
    join(mirror, 'modules/02packages.details.txt.gz'),
    gzipSync(
      'File:         02packages.details.txt\nColumns:      package name, version, path\nLine-Count:   1\n' +
        'Last-Updated: Sun, 29 Nov 2026 00:00:00 GMT\n\nTsalt::Hello                      0.01  T/TS/TSALT/Tsalt-Hello-0.01.tar.gz\n',
    ),
  );
  writeFileSync(
    join(mirror, 'modules/03modlist.data.gz'),
    gzipSync('File:        03modlist.data\n\npackage CPAN::Modulelist;\nsub data { {} }\n1;\n'),
  );
  const cpanDir = join(home, '.cpan');
  const conf: Record<string, string> = {
    auto_commit: '0',
    build_cache: '100',
    build_dir: join(cpanDir, 'build'),
    build_dir_reuse: '0',
    build_requires_install_policy: 'yes',
    cache_metadata: '1',
    check_sigs: '0',
    cleanup_after_install: '0',
    colorize_output: '0',
    connect_to_internet_ok: '1',
    cpan_home: cpanDir,
    getcwd: 'cwd',
    gzip: '/usr/bin/gzip',
    halt_on_failure: '0',
    histfile: join(cpanDir, 'histfile'),
    index_expire: '1',
    inhibit_startup_message: '0',
    keep_source_where: join(cpanDir, 'sources'),
    load_module_verbosity: 'none',
    make: '/usr/bin/make',
    make_install_make_command: '/usr/bin/make',
    makepl_arg: `INSTALL_BASE=${join(home, 'perl5')}`,
    mbuildpl_arg: `--install_base ${join(home, 'perl5')}`,
    mbuild_install_build_command: './Build',
    perl5lib_verbosity: 'none',
    prefer_installer: 'EUMM',
    prefs_dir: join(cpanDir, 'prefs'),
    prerequisites_policy: 'follow',
    pushy_https: '0',
    scan_cache: 'atstart',
    shell: '/bin/sh',
    tar: '/usr/bin/tar',
    tar_verbosity: 'none',
    term_is_latin: '1',
    test_report: '0',
    use_prompt_default: '1',
    use_sqlite: '0',
    version_timeout: '15',
    yaml_module: 'YAML',
  };
  const lines = Object.entries(conf).map(([k, v]) => `  '${k}' => q[${v}],`);
  lines.push(`  'urllist' => [q[file://${mirror}/]],`);
  writeFileSync(
    join(cpanDir, 'CPAN/MyConfig.pm'),
    `$CPAN::Config = {\n${lines.sort().join('\n')}\n};\n1;\n__END__\n`,
  );
  return join(home, 'perl5/lib/perl5');
}
