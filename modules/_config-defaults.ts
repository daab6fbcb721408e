/**
 * The "sane defaults" Salt's `config` module falls back to (`DEFAULTS` in
 * `salt/modules/config.py`), as data.
 */
export const CONFIG_DEFAULTS: Readonly<Record<string, unknown>> = Object.freeze({
  'mongo.db': 'salt',
  'mongo.password': '',
  'mongo.port': 27017,
  'mongo.user': '',
  'redis.db': '0',
  'redis.host': 'salt',
  'redis.port': 6379,
  'test.foo': 'unconfigured',
  'ca.cert_base_path': '/etc/pki',
  'solr.cores': [],
  'solr.host': 'localhost',
  'solr.port': '8983',
  'solr.baseurl': '/solr',
  'solr.type': 'master',
  'solr.request_timeout': null,
  'solr.init_script': '/etc/rc.d/solr',
  'solr.dih.import_options': { clean: false, optimize: true, commit: true, verbose: false },
  'solr.backup_path': null,
  'solr.num_backups': 1,
  'poudriere.config': '/usr/local/etc/poudriere.conf',
  'poudriere.config_dir': '/usr/local/etc/poudriere.d',
  'ldap.uri': '',
  'ldap.server': 'localhost',
  'ldap.port': '389',
  'ldap.tls': false,
  'ldap.no_verify': false,
  'ldap.anonymous': true,
  'ldap.scope': 2,
  'ldap.attrs': null,
  'ldap.binddn': '',
  'ldap.bindpw': '',
  'hosts.file': '/etc/hosts',
  'aliases.file': '/etc/aliases',
  virt: { tunnel: false, images: '/srv/salt-images' },
  'docker.exec_driver': 'docker-exec',
  'docker.compare_container_networks': {
    static: ['Aliases', 'Links', 'IPAMConfig'],
    automatic: ['IPAddress', 'Gateway', 'GlobalIPv6Address', 'IPv6Gateway'],
  },
});

/** Salt's `salt.utils.files.VALID_PROTOS`. */
export const VALID_PROTOS: readonly string[] = ['salt', 'file', 'http', 'https', 'ftp', 'swift', 's3'];
