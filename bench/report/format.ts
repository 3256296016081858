/** Number and table formatting shared by the generated Markdown and the README summary. */

export const integer = (value: number) => Math.round(value).toLocaleString('en-US');

/** A throughput ratio: how many times the first is the second, e.g. `2.41x`. */
export const times = (value: number) =>
  value >= 100 ? `${value.toFixed(0)}x` : value >= 10 ? `${value.toFixed(1)}x` : `${value.toFixed(2)}x`;

export const milliseconds = (value: number) => (value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2));

export type Align = 'left' | 'right' | 'center';
const RULE: Record<Align, string> = { left: '---', right: '---:', center: ':---:' };

/** A Markdown table as lines: header, alignment rule, rows. */
export function markdownTable(header: readonly string[], align: readonly Align[], rows: ReadonlyArray<readonly string[]>): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [line(header), line(align.map((column) => RULE[column])), ...rows.map(line)];
}
