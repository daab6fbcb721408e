/**
 * The maintainer scripts of tsalt's Debian packages (preinst, postinst, prerm, postrm), written
 * for each package from its layout (layout.ts). What they do, as Salt's packages and debhelper
 * do it:
 * - tsalt-common creates the `salt` system user and group (layout.ts's SALT_USER: the user the
 *   package's master config names; no install-time variable renames it, see there), unpacks the executable's code before the services restart, and on purge removes what the
 *   daemons wrote (caches, logs, sockets, the user it created);
 * - a service's package enables its unit (systemd) or its init script's links (sysvinit) on
 *   install, restarts it after an upgrade in postinst (prerm leaves it running, so the new
 *   minion replaces the old one once, and the old one's running jobs finish and return from
 *   their own processes), stops it on removal, and on purge removes its keys, cache and log.
 */
import { type DebPackage, EXECUTABLE, SALT_USER, UNPACK_DIR } from './layout.js';

export type ScriptName = 'preinst' | 'postinst' | 'prerm' | 'postrm';

const HEAD = '#!/bin/sh\nset -e\n';

/** Where tsalt-common notes the user and group it created (removed on purge). */
const STATE_DIR = '/var/lib/tsalt';

function commonPreinst(): string {
  return `${HEAD}
# the user the default master config names (user: ${SALT_USER}); fixed, so the two agree
SALT_USER=${SALT_USER}
SALT_GROUP=${SALT_USER}
case "$1" in
  install | upgrade)
    mkdir -p ${STATE_DIR}
    if ! getent group "$SALT_GROUP" >/dev/null; then
      groupadd --system "$SALT_GROUP"
      echo "$SALT_GROUP" >>${STATE_DIR}/created-group
    fi
    if ! getent passwd "$SALT_USER" >/dev/null; then
      useradd --system --no-create-home --home-dir /var/cache/salt --shell /usr/sbin/nologin \\
        --gid "$SALT_GROUP" --comment Salt "$SALT_USER"
      echo "$SALT_USER" >>${STATE_DIR}/created-user
    fi
    ;;
esac
exit 0
`;
}

function commonPostinst(hash: string): string {
  return `${HEAD}
case "$1" in
  configure)
    mkdir -p /var/run/salt /var/cache/salt /var/log/salt
    # unpack the executable's code now: the services then restart without that wait
    ${EXECUTABLE} salt-call --version >/dev/null
    # code of earlier builds that no process runs any more
    for dir in ${UNPACK_DIR}/*; do
      [ -d "$dir" ] || continue
      [ "$dir" = "${UNPACK_DIR}/${hash}" ] && continue
      if ! grep -aqsF -- "$dir/" /proc/[0-9]*/cmdline; then rm -rf "$dir"; fi
    done
    ;;
esac
exit 0
`;
}

function commonPostrm(): string {
  return `${HEAD}
if [ "$1" = purge ]; then
  rm -rf /var/cache/salt /var/log/salt /var/run/salt /var/cache/tsalt
  # the user and group tsalt-common created (not ones that were there before it)
  if [ -r ${STATE_DIR}/created-user ]; then
    while read -r name; do userdel "$name" 2>/dev/null || true; done <${STATE_DIR}/created-user
  fi
  if [ -r ${STATE_DIR}/created-group ]; then
    while read -r name; do
      if getent group "$name" >/dev/null; then groupdel "$name" 2>/dev/null || true; fi
    done <${STATE_DIR}/created-group
  fi
  rm -rf ${STATE_DIR}
  rmdir /etc/salt/pki /etc/salt 2>/dev/null || true
fi
exit 0
`;
}

/** Runs an init script action the way the host does (invoke-rc.d honours policy-rc.d). */
function sysv(service: string, action: string): string {
  return `if command -v invoke-rc.d >/dev/null; then invoke-rc.d ${service} ${action}; else /etc/init.d/${service} ${action}; fi`;
}

function servicePostinst(service: string): string {
  const unit = `${service}.service`;
  return `${HEAD}
if [ "$1" = configure ]; then
  if command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper unmask ${unit} >/dev/null || true
    if [ -z "$2" ] || deb-systemd-helper --quiet was-enabled ${unit}; then
      deb-systemd-helper enable ${unit} >/dev/null || true
    else
      deb-systemd-helper update-state ${unit} >/dev/null || true
    fi
  fi
  if [ -x /etc/init.d/${service} ] && command -v update-rc.d >/dev/null; then
    update-rc.d ${service} defaults >/dev/null
  fi
  # first install: start; upgrade: restart once the new files are in place
  if [ -d /run/systemd/system ]; then
    systemctl --system daemon-reload >/dev/null || true
    deb-systemd-invoke restart ${unit}${service === 'salt-api' ? ' || true' : ''}
  elif [ -x /etc/init.d/${service} ]; then
    ${sysv(service, 'restart')}${service === 'salt-api' ? ' || true' : ''}
  fi
fi
exit 0
`;
}

function servicePrerm(service: string): string {
  return `${HEAD}
# an upgrade leaves the service running: postinst restarts it with the new files
case "$1" in
  remove | deconfigure)
    if [ -d /run/systemd/system ]; then
      deb-systemd-invoke stop ${service}.service >/dev/null || true
    elif [ -x /etc/init.d/${service} ]; then
      ${sysv(service, 'stop')} || true
    fi
    ;;
esac
exit 0
`;
}

function servicePostrm(service: string, kind: string | undefined): string {
  const own = kind
    ? `  rm -rf /etc/salt/pki/${kind} /var/cache/salt/${kind} /var/log/salt/${kind} /var/run/salt/${kind}
  # the schedule the daemon saved (Salt's persisted schedule, the mine's job among it)
  rm -f /etc/salt/${kind}.d/_schedule.conf
  rmdir /etc/salt/${kind}.d 2>/dev/null || true\n`
    : '';
  return `${HEAD}
if [ -d /run/systemd/system ]; then
  systemctl --system daemon-reload >/dev/null || true
fi
if [ "$1" = purge ]; then
  if command -v update-rc.d >/dev/null; then update-rc.d ${service} remove >/dev/null; fi
  if command -v deb-systemd-helper >/dev/null; then
    deb-systemd-helper purge ${service}.service >/dev/null || true
    deb-systemd-helper unmask ${service}.service >/dev/null || true
  fi
${own}  rm -f /var/run/${service}.pid
fi
exit 0
`;
}

/** The maintainer scripts of `pkg`; `hash` names the executable's code (its unpack folder). */
export function maintainerScripts(pkg: DebPackage, hash: string): Partial<Record<ScriptName, string>> {
  if (!pkg.service) {
    return { preinst: commonPreinst(), postinst: commonPostinst(hash), postrm: commonPostrm() };
  }
  const kind = pkg.service === 'salt-api' ? undefined : pkg.service.slice('salt-'.length);
  return {
    postinst: servicePostinst(pkg.service),
    prerm: servicePrerm(pkg.service),
    postrm: servicePostrm(pkg.service, kind),
  };
}
