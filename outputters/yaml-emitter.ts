/**
 * The emitter half of Salt's yaml outputter: a port of libyaml 0.2.5's emitter (PyYAML's
 * `CSafeDumper`, which Salt uses whenever PyYAML has its C extension), so that quoting,
 * line folding at 80 columns and indentation match Salt byte for byte.
 */
import type { MappingNode, ScalarNode, SequenceNode, YamlNode } from './yaml-nodes.js';
import { type Analysis, analyze, escapeChar, isBreak, isPrintable } from './yaml-scalar.js';

type Style = 'plain' | 'single' | 'double' | 'literal';

interface Context {
  mapping?: boolean;
  simpleKey?: boolean;
}

/** Emits one YAML document the way libyaml does; {@link YamlEmitter.text} is the stream. */
export class YamlEmitter {
  readonly #bestIndent: number;
  readonly #bestWidth = 80;
  #out: string[] = [];
  #column = 0;
  #whitespace = true;
  #indention = true;
  #indent = -1;
  #indents: number[] = [];
  #flowLevel = 0;
  #openEnded = 0;

  constructor(indent?: number) {
    this.#bestIndent = indent !== undefined && indent > 1 && indent < 10 ? indent : 2;
  }

  /** Emits `root` as an implicit document (no `---`) and returns the stream text. */
  document(root: YamlNode): string {
    this.#node(root, {});
    this.#writeIndent();
    if (this.#openEnded === 2) {
      this.#indicator('...', true, false, false);
      this.#writeIndent();
    }
    return this.#out.join('');
  }

  #put(s: string): void {
    this.#out.push(s);
    this.#column += 1;
  }

  #putBreak(): void {
    this.#out.push('\n');
    this.#column = 0;
  }

  #writeBreak(c: string): void {
    if (c === '\n') this.#putBreak();
    else {
      this.#out.push(c);
      this.#column = 0;
    }
  }

  #indicator(text: string, needWs: boolean, isWs: boolean, isIndention: boolean): void {
    if (needWs && !this.#whitespace) this.#put(' ');
    for (const c of text) this.#put(c);
    this.#whitespace = isWs;
    this.#indention = this.#indention && isIndention;
  }

  #writeIndent(): void {
    const indent = Math.max(this.#indent, 0);
    if (!this.#indention || this.#column > indent || (this.#column === indent && !this.#whitespace)) {
      this.#putBreak();
    }
    while (this.#column < indent) this.#put(' ');
    this.#whitespace = true;
    this.#indention = true;
  }

  #increaseIndent(flow: boolean, indentless: boolean): void {
    this.#indents.push(this.#indent);
    if (this.#indent < 0) this.#indent = flow ? this.#bestIndent : 0;
    else if (!indentless) this.#indent += this.#bestIndent;
  }

  #popIndent(): void {
    this.#indent = this.#indents.pop() ?? -1;
  }

  #node(node: YamlNode, ctx: Context): void {
    if (node.kind === 'scalar') this.#scalar(node, ctx);
    else if (node.kind === 'seq') {
      if (this.#flowLevel || node.flow || node.items.length === 0) this.#flowSequence(node);
      else this.#blockSequence(node, ctx);
    } else if (this.#flowLevel || node.flow || node.pairs.length === 0) this.#flowMapping(node);
    else this.#blockMapping(node);
  }

  #tagged(node: ScalarNode): boolean {
    return !node.plainImplicit && !node.quotedImplicit;
  }

  #simpleKey(node: YamlNode): boolean {
    if (node.kind === 'seq') return node.items.length === 0;
    if (node.kind === 'map') return node.pairs.length === 0;
    const a = analyze([...node.value], node.value);
    if (a.multiline) return false;
    const tagLength = this.#tagged(node) ? 2 + node.tag.length - 'tag:yaml.org,2002:'.length : 0;
    return tagLength + a.bytes <= 128;
  }

  #chooseStyle(node: ScalarNode, a: Analysis, ctx: Context): Style {
    let style: Style = node.style === '|' ? 'literal' : 'plain';
    const noTag = !this.#tagged(node);
    if (ctx.simpleKey && a.multiline) style = 'double';
    if (style === 'plain') {
      if ((this.#flowLevel && !a.flowPlain) || (!this.#flowLevel && !a.blockPlain)) style = 'single';
      if (a.bytes === 0 && (this.#flowLevel || ctx.simpleKey)) style = 'single';
      if (noTag && !node.plainImplicit) style = 'single';
    }
    if (style === 'single' && !a.singleQuoted) style = 'double';
    if (style === 'literal' && (!a.block || this.#flowLevel || ctx.simpleKey)) style = 'double';
    return style;
  }

  #scalar(node: ScalarNode, ctx: Context): void {
    const cps = [...node.value];
    const a = analyze(cps, node.value);
    const style = this.#chooseStyle(node, a, ctx);
    if (this.#tagged(node)) {
      // `!!name` for the YAML core schema tags (only !!binary gets here).
      if (!this.#whitespace) this.#put(' ');
      for (const c of `!!${node.tag.slice('tag:yaml.org,2002:'.length)}`) this.#put(c);
      this.#whitespace = false;
      this.#indention = false;
    } else if (!node.quotedImplicit && style !== 'plain') {
      if (!this.#whitespace) this.#put(' ');
      this.#put('!');
      this.#whitespace = false;
      this.#indention = false;
    }
    this.#increaseIndent(true, false);
    const allowBreaks = !ctx.simpleKey;
    if (style === 'plain') this.#plain(cps, allowBreaks);
    else if (style === 'single') this.#singleQuoted(cps, allowBreaks);
    else if (style === 'double') this.#doubleQuoted(cps, allowBreaks);
    else this.#literal(cps);
    this.#popIndent();
  }

  #plain(cps: readonly string[], allowBreaks: boolean): void {
    if (!this.#whitespace && (cps.length > 0 || this.#flowLevel)) this.#put(' ');
    let spaces = false;
    let breaks = false;
    cps.forEach((c, i) => {
      if (c === ' ') {
        if (allowBreaks && !spaces && this.#column > this.#bestWidth && cps[i + 1] !== ' ')
          this.#writeIndent();
        else this.#put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.#putBreak();
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.#writeIndent();
        this.#put(c);
        this.#indention = false;
        spaces = false;
        breaks = false;
      }
    });
    this.#whitespace = false;
    this.#indention = false;
  }

  #singleQuoted(cps: readonly string[], allowBreaks: boolean): void {
    this.#indicator("'", true, false, false);
    let spaces = false;
    let breaks = false;
    const last = cps.length - 1;
    cps.forEach((c, i) => {
      if (c === ' ') {
        const fold =
          allowBreaks &&
          !spaces &&
          this.#column > this.#bestWidth &&
          i !== 0 &&
          i !== last &&
          cps[i + 1] !== ' ';
        if (fold) this.#writeIndent();
        else this.#put(c);
        spaces = true;
      } else if (isBreak(c)) {
        if (!breaks && c === '\n') this.#putBreak();
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.#writeIndent();
        if (c === "'") this.#put("'");
        this.#put(c);
        this.#indention = false;
        spaces = false;
        breaks = false;
      }
    });
    if (breaks) this.#writeIndent();
    this.#indicator("'", false, false, false);
    this.#whitespace = false;
    this.#indention = false;
  }

  #doubleQuoted(cps: readonly string[], allowBreaks: boolean): void {
    this.#indicator('"', true, false, false);
    let spaces = false;
    const last = cps.length - 1;
    cps.forEach((c, i) => {
      if (!isPrintable(c) || isBreak(c) || c === '"' || c === '\\') {
        for (const e of escapeChar(c)) this.#put(e);
        spaces = false;
      } else if (c === ' ') {
        if (allowBreaks && !spaces && this.#column > this.#bestWidth && i !== 0 && i !== last) {
          this.#writeIndent();
          if (cps[i + 1] === ' ') this.#put('\\');
        } else {
          this.#put(c);
        }
        spaces = true;
      } else {
        this.#put(c);
        spaces = false;
      }
    });
    this.#indicator('"', false, false, false);
    this.#whitespace = false;
    this.#indention = false;
  }

  #literal(cps: readonly string[]): void {
    this.#indicator('|', true, false, false);
    const first = cps[0];
    if (first === ' ' || isBreak(first)) this.#indicator(String(this.#bestIndent), false, false, false);
    this.#openEnded = 0;
    let chomp = '';
    if (cps.length === 0 || !isBreak(cps[cps.length - 1])) chomp = '-';
    else if (cps.length === 1 || isBreak(cps[cps.length - 2])) {
      chomp = '+';
      this.#openEnded = 2;
    }
    if (chomp) this.#indicator(chomp, false, false, false);
    this.#putBreak();
    this.#indention = true;
    this.#whitespace = true;
    let breaks = true;
    for (const c of cps) {
      if (isBreak(c)) {
        this.#writeBreak(c);
        this.#indention = true;
        breaks = true;
      } else {
        if (breaks) this.#writeIndent();
        this.#put(c);
        this.#indention = false;
        breaks = false;
      }
    }
  }

  #flowSequence(node: SequenceNode): void {
    this.#indicator('[', true, true, false);
    this.#increaseIndent(true, false);
    this.#flowLevel++;
    node.items.forEach((item, i) => {
      if (i > 0) this.#indicator(',', false, false, false);
      if (this.#column > this.#bestWidth) this.#writeIndent();
      this.#node(item, {});
    });
    this.#flowLevel--;
    this.#popIndent();
    this.#indicator(']', false, false, false);
  }

  #flowMapping(node: MappingNode): void {
    this.#indicator('{', true, true, false);
    this.#increaseIndent(true, false);
    this.#flowLevel++;
    node.pairs.forEach(([key, value], i) => {
      if (i > 0) this.#indicator(',', false, false, false);
      if (this.#column > this.#bestWidth) this.#writeIndent();
      if (this.#simpleKey(key)) {
        this.#node(key, { mapping: true, simpleKey: true });
        this.#indicator(':', false, false, false);
      } else {
        this.#indicator('?', true, false, false);
        this.#node(key, { mapping: true });
        if (this.#column > this.#bestWidth) this.#writeIndent();
        this.#indicator(':', true, false, false);
      }
      this.#node(value, { mapping: true });
    });
    this.#flowLevel--;
    this.#popIndent();
    this.#indicator('}', false, false, false);
  }

  #blockSequence(node: SequenceNode, ctx: Context): void {
    this.#increaseIndent(false, ctx.mapping === true && !this.#indention);
    for (const item of node.items) {
      this.#writeIndent();
      this.#indicator('-', true, false, true);
      this.#node(item, {});
    }
    this.#popIndent();
  }

  #blockMapping(node: MappingNode): void {
    this.#increaseIndent(false, false);
    for (const [key, value] of node.pairs) {
      this.#writeIndent();
      if (this.#simpleKey(key)) {
        this.#node(key, { mapping: true, simpleKey: true });
        this.#indicator(':', false, false, false);
      } else {
        this.#indicator('?', true, false, true);
        this.#node(key, { mapping: true });
        this.#writeIndent();
        this.#indicator(':', true, false, true);
      }
      this.#node(value, { mapping: true });
    }
    this.#popIndent();
  }
}
