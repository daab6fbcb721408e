/**
 * What tsalt's Debian packages hold, laid out as Salt's own packages are: a common package
 * with the executable (one self-contained file, tools/sea/) and `salt-call`, and one package
 * each for the minion, the master and the API, with their commands, default configuration
 * (conffiles, kept on upgrade), systemd unit and sysvinit script.
 */

/** The one executable every command runs from (each command is a link to it). */
export const EXECUTABLE = '/usr/lib/tsalt/tsalt';
/** The sysvinit scripts' shared logic (packaging/sysvinit/salt-init.sh). */
export const INIT_FUNCTIONS = '/usr/lib/tsalt/salt-init.sh';
/**
 * The system user (and group) tsalt-common creates and the master runs as: the name the
 * package's default master config sets (`user: salt`, packaging/conf/master), as in Salt's
 * packages. It is fixed, not chosen at install time, so that the two always agree; an admin who
 * wants another user sets `user:` in /etc/salt/master.d/ (Salt's documented way), and the
 * master hands that user its folders when it starts (master/run-as-user.ts).
 */
export const SALT_USER = 'salt';
/** Where the executable unpacks its code when root runs it (tools/sea/sea-main.cts). */
export const UNPACK_DIR = '/var/cache/tsalt/sea';

export interface DebPackage {
  /** The package name. */
  name: string;
  /** Salt's package it stands in for (they cannot be installed together). */
  replaces: string;
  summary: string;
  description: string;
  /** Commands linked to the executable in /usr/bin. */
  commands: readonly string[];
  /** The daemon it runs as a service, if any (its unit and init script, enabled on install). */
  service?: 'salt-minion' | 'salt-master' | 'salt-api';
  /** The default config file it installs as a conffile (from packaging/conf/). */
  config?: 'minion' | 'master';
  /** Folders the package owns. */
  dirs: readonly string[];
}

export const COMMON: DebPackage = {
  name: 'tsalt-common',
  replaces: 'salt-common',
  summary: 'tsalt (SaltStack in TypeScript): the shared executable and salt-call',
  description:
    'One self-contained executable (Node and tsalt in one file) that every tsalt command runs\n' +
    'from, and salt-call. It needs no Node, npm or compiler on the host.',
  commands: ['salt-call'],
  dirs: ['/etc/salt', '/var/cache/salt', '/var/log/salt', '/usr/lib/tsalt'],
};

export const PACKAGES: readonly DebPackage[] = [
  COMMON,
  {
    name: 'tsalt-minion',
    replaces: 'salt-minion',
    summary: 'tsalt (SaltStack in TypeScript): the minion',
    description:
      'The salt-minion daemon: signs in to its master and runs the jobs it publishes. An\n' +
      'upgrade restarts it without killing a running job: the job returns from its own process.',
    commands: ['salt-minion'],
    service: 'salt-minion',
    config: 'minion',
    dirs: ['/etc/salt/minion.d'],
  },
  {
    name: 'tsalt-master',
    replaces: 'salt-master',
    summary: 'tsalt (SaltStack in TypeScript): the master',
    description:
      'The salt-master daemon and the commands that drive it (salt, salt-key, salt-run); it\n' +
      "speaks Salt 3006's wire protocol, so Salt minions join it too.",
    commands: ['salt-master', 'salt', 'salt-key', 'salt-run'],
    service: 'salt-master',
    config: 'master',
    dirs: ['/etc/salt/master.d'],
  },
  {
    name: 'tsalt-api',
    replaces: 'salt-api',
    summary: 'tsalt (SaltStack in TypeScript): the REST API',
    description:
      'salt-api: the salt-api compatible REST API and event stream, configured in the\n' +
      "master's config (rest_cherrypy).",
    commands: ['salt-api'],
    service: 'salt-api',
    dirs: [],
  },
];

/** Debian's name for a Node architecture. */
export function debianArch(arch: string = process.arch): string {
  const names: Record<string, string> = { x64: 'amd64', arm64: 'arm64', arm: 'armhf', ia32: 'i386' };
  const name = names[arch];
  if (!name) throw new Error(`no Debian architecture for ${arch}`);
  return name;
}
