/** How a column is aligned: `---`, `---:` or `:---:`. */
export type Align = 'left' | 'right' | 'center';

const RULE: Record<Align, string> = { left: '---', right: '---:', center: ':---:' };

const row = (cells: readonly (string | number)[]) => `| ${cells.join(' | ')} |`;

/** Prints a Markdown table: the header, the alignment rule, then one line per row. */
export function printTable(header: readonly string[], align: readonly Align[], rows: readonly (readonly (string | number)[])[]): void {
  console.log(row(header));
  console.log(row(align.map((column) => RULE[column])));
  for (const cells of rows) console.log(row(cells));
}
