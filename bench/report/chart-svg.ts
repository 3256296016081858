import { PEER_NAMES, PeerName } from '../peers/peer';
import { integer } from './format';
import type { SuiteResults } from './results';

/**
 * A plain SVG bar chart of throughput, drawn from the results alone: one group per operation (Table I
 * sequential and concurrent, bulk create), one bar per library, on a logarithmic axis (the figures span
 * three orders of magnitude).
 */
const COLORS: Record<PeerName, string> = {
  'redis-record': '#c0392b',
  'hand-written': '#7f8c8d',
  nohm: '#2980b9',
  'redis-om': '#27ae60',
};

interface Group {
  label: string;
  values: Partial<Record<PeerName, number>>;
}

function groups(results: SuiteResults): Group[] {
  const out: Group[] = [];
  for (const [mode, table] of [
    ['sequential', results.tableOne.sequential],
    [`${results.tableOne.concurrent.concurrency} in flight`, results.tableOne.concurrent],
  ] as const) {
    for (const row of table.operations) {
      const values: Group['values'] = {};
      for (const name of PEER_NAMES) if (row.results[name]) values[name] = row.results[name]!.opsPerSecond;
      out.push({ label: `${row.operation}, ${mode}`, values });
    }
  }
  const bulk: Group['values'] = {};
  for (const name of PEER_NAMES) if (results.bulk.results[name]) bulk[name] = results.bulk.results[name]!.objectsPerSecond;
  out.push({ label: 'bulk create', values: bulk });
  return out;
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

export function renderChart(results: SuiteResults): string {
  const data = groups(results);
  const all = data.flatMap((group) => Object.values(group.values)).filter((value): value is number => value! > 0);
  const low = Math.floor(Math.log10(Math.min(...all)));
  const high = Math.ceil(Math.log10(Math.max(...all)));
  const left = 170;
  const plot = 560;
  const right = 90;
  const bar = 9;
  const top = 50;
  const rowHeight = PEER_NAMES.length * bar + 10;
  const height = top + data.length * rowHeight + 30;
  const width = left + plot + right;
  const x = (value: number) => left + ((Math.log10(value) - low) / (high - low)) * plot;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="sans-serif" font-size="11">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
    `<text x="${left}" y="18" font-size="13" font-weight="bold">Operations per second (log scale), higher is better</text>`,
  ];
  PEER_NAMES.forEach((name, k) => {
    const lx = left + k * 130;
    parts.push(`<rect x="${lx}" y="28" width="10" height="10" fill="${COLORS[name]}"/>`, `<text x="${lx + 14}" y="37">${name}</text>`);
  });
  for (let power = low; power <= high; power++) {
    const gx = x(10 ** power);
    parts.push(
      `<line x1="${gx}" y1="${top - 4}" x2="${gx}" y2="${height - 26}" stroke="#dddddd"/>`,
      `<text x="${gx}" y="${height - 12}" text-anchor="middle" fill="#555555">${integer(10 ** power)}</text>`,
    );
  }
  data.forEach((group, row) => {
    const y0 = top + row * rowHeight;
    parts.push(`<text x="${left - 8}" y="${y0 + (PEER_NAMES.length * bar) / 2 + 4}" text-anchor="end">${escape(group.label)}</text>`);
    PEER_NAMES.forEach((name, k) => {
      const value = group.values[name];
      if (value === undefined || value <= 0) return;
      const y = y0 + k * bar;
      const w = Math.max(1, x(value) - left);
      parts.push(
        `<rect x="${left}" y="${y}" width="${w.toFixed(1)}" height="${bar - 1}" fill="${COLORS[name]}"><title>${name}: ${integer(value)}/s</title></rect>`,
        `<text x="${(left + w + 3).toFixed(1)}" y="${y + bar - 1}" font-size="8" fill="#333333">${integer(value)}</text>`,
      );
    });
  });
  parts.push('</svg>', '');
  return parts.join('\n');
}
