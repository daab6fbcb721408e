/**
 * A list that renders only the rows in view (plus a margin), so 10,000 minions scroll as
 * smoothly as ten: fixed-height rows inside a spacer as tall as the whole list.
 */
import { html } from 'htm/preact';
import type { ComponentChild } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';

export function VirtualList<T>(props: {
  items: readonly T[];
  rowHeight: number;
  height: number;
  row: (item: T, index: number) => ComponentChild;
  label: string;
}) {
  const box = useRef<HTMLDivElement>(null);
  const [top, setTop] = useState(0);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const on = () => setTop(el.scrollTop);
    el.addEventListener('scroll', on, { passive: true });
    return () => el.removeEventListener('scroll', on);
  }, []);
  const { items, rowHeight, height } = props;
  const first = Math.max(0, Math.floor(top / rowHeight) - 10);
  const last = Math.min(items.length, Math.ceil((top + height) / rowHeight) + 10);
  const rows: ComponentChild[] = [];
  for (let i = first; i < last; i++) rows.push(props.row(items[i] as T, i));
  return html`<div class="vlist" ref=${box} role="list" aria-label=${props.label} style=${{ height: `${height}px` }}>
    <div class="vlist-spacer" style=${{ height: `${items.length * rowHeight}px` }}>
      <div class="vlist-rows" style=${{ transform: `translateY(${first * rowHeight}px)` }}>${rows}</div>
    </div>
  </div>`;
}
