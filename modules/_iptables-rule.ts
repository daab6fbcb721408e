/**
 * Salt's `iptables.build_rule` keyword-to-option mapping: keywords (`proto`, `match`,
 * `connstate`, `dport`, `dports`, `comment`, `jump`, ...) become the options of one iptables
 * rule, in Salt's order; a value starting with `!` or `not` negates its option.
 */
import { pyStr } from '../kernel/util.js';
import { STATE_INTERNAL_KEYWORDS } from './_iptables-keywords.js';

/** Options that belong to a jump target, so they follow `-j`. In Salt's order (`j`/`jump` first). */
const AFTER_JUMP = `j jump add-set and-mark and-tos checksum-fill clamp-mss-to-pmtu clustermac ctevents
ctmask del-set ecn-tcp-remove exist expevents gateway hash-init hashmode helper label local-node
log-ip-options log-level log-prefix log-tcp-options log-tcp-sequence log-uid mask new nfmask
nflog-group nflog-prefix nflog-range nflog-threshold nodst notrack on-ip on-port or-mark or-tos
persistent queue-balance queue-bypass queue-num random rateest-ewmalog rateest-interval
rateest-name reject-with restore restore-mark save-mark selctx set-class set-dscp set-dscp-class
set-mark set-mss set-tos set-xmark strip-options timeout to to-destination to-ports to-source
total-nodes tproxy-mark ttl-dec ttl-inc ttl-set type ulog-cprange ulog-nlgroup ulog-prefix
ulog-qthreshold xor-mark xor-tos zone dst-pfx hl-dec hl-inc hl-set hmark-dport-mask
hmark-dst-prefix hmark-mod hmark-offset hmark-proto-mask hmark-rnd hmark-spi-mask hmark-sport-mask
hmark-src-prefix hmark-tuple led-always-blink led-delay led-trigger-id queue-cpu-fanout src-pfx
to-port addr and-mask delude honeypot or-mask prefix reset reuse set-mac shift static tarpit tname
ttl`.split(/\s+/);

/** Keywords a rule never turns into options: the state system's own, and the state's `chain`, `save`, `table`. */
const IGNORED = new Set([...STATE_INTERNAL_KEYWORDS, 'chain', 'save', 'table']);

const NEGATION = /(!|not)\s?/g;

const isNegated = (v: unknown): boolean => {
  const s = pyStr(v);
  return s.startsWith('!') || s.startsWith('not');
};

const blank = (v: unknown): boolean => v === null || v === undefined || v === '';

const hasWhitespace = (s: string): boolean => [...s].some((c) => ' \t\n\r\v\f'.includes(c));

/**
 * The rule `kwargs` describe, as the text after `-A CHAIN` (Salt's `build_rule` without
 * `full`), or Salt's `Error: ...` string. `kwargs` is not changed.
 * @example buildRuleText({ proto: 'tcp', dport: 22, jump: 'ACCEPT' }) // '-p tcp --dport 22 -j ACCEPT'
 */
export function buildRuleText(input: Readonly<Record<string, unknown>>): string {
  const kw = new Map<string, unknown>(Object.entries(input));
  if (kw.has('target')) {
    const target = kw.get('target');
    kw.delete('target');
    kw.set('jump', target);
  }
  kw.delete('name');
  kw.delete('state');
  for (const k of [...kw.keys()]) if (IGNORED.has(k) || k.startsWith('__pub_')) kw.delete(k);
  const rule: string[] = [];
  let protocol = false;
  /** `'! '` and the value without its negation when `key`'s value is negated, else `''`. */
  const negation = (key: string): string => {
    const value = pyStr(kw.get(key));
    if (!isNegated(value)) return '';
    kw.set(key, value.replace(NEGATION, ''));
    return '! ';
  };
  const take = (key: string): string => {
    const v = pyStr(kw.get(key));
    kw.delete(key);
    return v;
  };
  for (const [key, flag] of [
    ['if', '-i'],
    ['of', '-o'],
  ] as const) {
    if (!kw.has(key)) continue;
    const neg = negation(key);
    rule.push(`${neg}${flag} ${take(key)}`);
  }
  if (kw.has('proto') && kw.get('match') !== 'policy') {
    kw.set('protocol', kw.get('proto'));
    kw.delete('proto');
  }
  if (kw.has('protocol')) {
    const neg = negation('protocol');
    rule.push(`${neg}-p ${take('protocol')}`);
    protocol = true;
  }
  if (kw.has('match')) {
    const m = kw.get('match');
    const matches = Array.isArray(m) ? m : pyStr(m).split(',');
    for (const one of matches) {
      rule.push(`-m ${pyStr(one)}`);
      if (kw.has('name_') && ['pknock', 'quota2', 'recent'].includes(pyStr(one).trim())) {
        rule.push(`--name ${take('name_')}`);
      }
    }
    if (kw.has('proto') && m === 'policy') {
      const neg = negation('proto');
      rule.push(`${neg}--proto ${take('proto')}`);
    }
    kw.delete('match');
  }
  if (kw.has('match-set')) {
    const v = kw.get('match-set');
    for (const raw of Array.isArray(v) ? v : [v]) {
      let set = pyStr(raw);
      const neg = isNegated(set) ? '! ' : '';
      if (neg) set = set.replace(NEGATION, '');
      rule.push(`-m set ${neg}--match-set ${set}`);
    }
    kw.delete('match-set');
  }
  if (kw.has('connstate')) {
    if (!rule.includes('-m state')) rule.push('-m state');
    const neg = negation('connstate');
    rule.push(`${neg}--state ${take('connstate')}`);
  }
  for (const key of ['dport', 'sport']) {
    if (!kw.has(key)) continue;
    const neg = negation(key);
    rule.push(`${neg}--${key} ${take(key)}`);
  }
  for (const key of ['dports', 'sports']) {
    if (!kw.has(key)) continue;
    if (!rule.includes('-m multiport')) {
      rule.push('-m multiport');
      if (!protocol) return 'Error: protocol must be specified';
    }
    const v = kw.get(key);
    let ports: string;
    if (Array.isArray(v)) {
      const items = v.map((i) => pyStr(i));
      if (items.some(isNegated)) {
        rule.push('!');
        ports = items.map((i) => i.replace(NEGATION, '')).join(',');
      } else ports = items.join(',');
    } else if (isNegated(v)) {
      rule.push('!');
      ports = pyStr(v).replace(NEGATION, '');
    } else ports = pyStr(v);
    rule.push(`--${key} ${ports}`);
    kw.delete(key);
  }
  if (kw.has('comment')) {
    if (!rule.includes('-m comment')) rule.push('-m comment');
    rule.push(`--comment "${take('comment')}"`);
  }
  if (kw.has('set') && pyTruthy(kw.get('set'))) {
    const neg = negation('set');
    rule.push(`${neg}--match-set ${take('set')}`);
  }
  const afterJump: string[] = [];
  for (const key of AFTER_JUMP) {
    if (!kw.has(key)) continue;
    const v = kw.get(key);
    if (blank(v)) afterJump.push(`--${key}`);
    else if (hasWhitespace(pyStr(v))) afterJump.push(`--${key} "${pyStr(v)}"`);
    else afterJump.push(`--${key} ${pyStr(v)}`);
    kw.delete(key);
  }
  for (const key of [...kw.keys()]) {
    const neg = negation(key);
    const v = kw.get(key);
    const flag = key.length === 1 ? '-' : '--';
    rule.push(`${neg}${flag}${key}${blank(v) ? '' : ` ${pyStr(v)}`}`);
  }
  return [...rule, ...afterJump].join(' ');
}

/** Python's truth of a value as YAML or JSON gives it. */
export function pyTruthy(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === 0 || v === '') return false;
  if (Array.isArray(v)) return v.length > 0;
  if (typeof v === 'object') return Object.keys(v).length > 0;
  return true;
}
