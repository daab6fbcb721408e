/**
 * The three Jinja templates Salt's `highstate_doc` module offers for `render` (what its
 * `markdown_*_jinja_template` functions return, text for text): `basic` lists each state with
 * its requisites and details; `default` puts a header with a few grains before it; `full`
 * appends the host's interfaces, routes, firewall rules and mounts after it.
 */

/** Each state: its `state: id` heading, function, name, requisites and details. */
export const BASIC_TEMPLATE = `
{% for s in lowstates %}
\`{{s.id_full}}\`
-----------------------------------------------------------------
 * state: {{s.state_function}}
 * name: \`{{s.name}}\`

{{s.markdown.requisites}}
{{s.markdown.details}}

{%- endfor %}
`;

const HEADER = `
Configuration Managment
===============================================================================

\`\`\`
####################################################
fqdn: {{grains.get('fqdn')}}
os: {{grains.get('os')}}
osfinger: {{grains.get('osfinger')}}
mem_total: {{grains.get('mem_total')}}MB
num_cpus: {{grains.get('num_cpus')}}
ipv4: {{grains.get('ipv4')}}
master: {{opts.get('master')}}
####################################################
\`\`\`

This system is fully or partly managed using Salt.

The following sections are a rendered view of what the configuration management system
controlled on this system. Each item is handled in order from top to bottom unless some
requisites like \`require\` force other ordering.

`;

/** The basic list under a header of grains (fqdn, os, memory, CPUs, addresses, master). */
export const DEFAULT_TEMPLATE = HEADER + BASIC_TEMPLATE;

const OTHER = `

{% if vars.get('doc_other', True) -%}
Other information
=====================================================================================

\`\`\`

salt grain: ip_interfaces
-----------------------------------------------------------------
{{grains['ip_interfaces']|dictsort}}


salt grain: hwaddr_interfaces
-----------------------------------------------------------------
{{grains['hwaddr_interfaces']|dictsort}}

{% if not grains['os'] == 'Windows' %}

{% if salt['cmd.has_exec']('ip') -%}
# ip address show
-----------------------------------------------------------------
{{salt['cmd.run']('ip address show | sed "/valid_lft/d"')}}


# ip route list table all
-----------------------------------------------------------------
{{salt['cmd.run']('ip route list table all')}}
{% endif %}

{% if salt['cmd.has_exec']('iptables') %}
{%- if salt['cmd.has_exec']('iptables-save') -%}
# iptables-save
-----------------------------------------------------------------
{{salt['cmd.run']("iptables --list > /dev/null; iptables-save | \\grep -v -F '#' | sed '/^:/s@\\[[0-9]\\{1,\\}:[0-9]\\{1,\\}\\]@[0:0]@g'")}}


# ip6tables-save
-----------------------------------------------------------------
{{salt['cmd.run']("ip6tables --list > /dev/null; ip6tables-save | \\grep -v -F '#' | sed '/^:/s@\\[[0-9]\\{1,\\}:[0-9]\\{1,\\}\\]@[0:0]@g'")}}
{%- else -%}
# iptables --list-rules
-----------------------------------------------------------------
{{salt['cmd.run']('iptables --list-rules')}}


# ip6tables --list-rules
-----------------------------------------------------------------
{{salt['cmd.run']('ip6tables --list-rules')}}
{% endif %}
{% endif %}

{% if salt['cmd.has_exec']('firewall-cmd') -%}
# firewall-cmd --list-all
-----------------------------------------------------------------
{{salt['cmd.run']('firewall-cmd --list-all')}}
{% endif %}

# mount
-----------------------------------------------------------------
{{salt['cmd.run']('mount')}}

{% endif %}
`;

/** The default template, then the host's network, firewall and mount details. */
export const FULL_TEMPLATE = DEFAULT_TEMPLATE + OTHER;
