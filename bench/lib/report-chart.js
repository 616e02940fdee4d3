/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// chart.svg: throughput against connections, and the added latencies, hand-written SVG.
const { TARGET_NAMES, GATEWAYS, BASELINE, byName, f, signed } = require('./report-format');

const COLORS = { direct: '#6b7280', floor: '#16a34a', rosetta: '#2563eb', 'rosetta-baseline': '#93c5fd', portkey: '#f97316' };

function esc(text) {
  return String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function niceMax(value) {
  if (!value || value <= 0) return 1;
  const exp = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * exp >= value) return step * exp;
  return 10 * exp;
}

/** Two panels: throughput vs connections (three lines), added latency p50/p99 bars. */
function chart(results) {
  const W = 960;
  const H = 440;
  const out = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="system-ui, -apple-system, Segoe UI, sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);

  // Panel 1: throughput vs connections (x: log2 scale).
  const p1 = { x: 70, y: 50, w: 380, h: 290 };
  const levels = (results.throughput || []).map((r) => r.connections);
  const maxRps = niceMax(Math.max(1, ...(results.throughput || []).flatMap((r) => r.points.filter(Boolean).map((p) => p.rps))));
  const xs = (c) => {
    const lo = Math.log2(Math.min(...levels));
    const hi = Math.log2(Math.max(...levels));
    return p1.x + (hi === lo ? p1.w / 2 : ((Math.log2(c) - lo) / (hi - lo)) * p1.w);
  };
  const ys = (v) => p1.y + p1.h - (v / maxRps) * p1.h;
  out.push(`<text x="${p1.x}" y="28" font-size="14" font-weight="600">Throughput, non-streaming (req/s) vs connections</text>`);
  for (let i = 0; i <= 5; i += 1) {
    const v = (maxRps * i) / 5;
    const y = ys(v);
    out.push(`<line x1="${p1.x}" y1="${y}" x2="${p1.x + p1.w}" y2="${y}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${p1.x - 8}" y="${y + 4}" text-anchor="end" fill="#374151">${Math.round(v)}</text>`);
  }
  for (const c of levels) {
    out.push(`<text x="${xs(c)}" y="${p1.y + p1.h + 18}" text-anchor="middle" fill="#374151">${c}</text>`);
  }
  out.push(`<text x="${p1.x + p1.w / 2}" y="${p1.y + p1.h + 36}" text-anchor="middle" fill="#374151">connections</text>`);
  out.push(`<line x1="${p1.x}" y1="${p1.y + p1.h}" x2="${p1.x + p1.w}" y2="${p1.y + p1.h}" stroke="#9ca3af"/>`);
  let legendX = p1.x - 40;
  TARGET_NAMES.forEach((name) => {
    const pts = (results.throughput || []).map((r) => ({ c: r.connections, p: byName(r.points)[name] })).filter((e) => e.p);
    if (pts.length === 0) return;
    out.push(`<polyline fill="none" stroke="${COLORS[name]}" stroke-width="2.5"${name === BASELINE ? ' stroke-dasharray="6 3"' : ''} points="${pts.map((e) => `${xs(e.c).toFixed(1)},${ys(e.p.rps).toFixed(1)}`).join(' ')}"/>`);
    for (const e of pts) {
      out.push(`<circle cx="${xs(e.c).toFixed(1)}" cy="${ys(e.p.rps).toFixed(1)}" r="3.5" fill="${COLORS[name]}"><title>${esc(`${name}, ${e.c} connections: ${f(e.p.rps)} req/s, p99 ${f(e.p.latencyMs.p99, 1)} ms, ${e.p.errors} errors`)}</title></circle>`);
      if ((name === 'rosetta' || name === 'portkey') && e.c > Math.min(...levels)) {
        const dy = name === 'rosetta' ? -8 : 16;
        out.push(`<text x="${(xs(e.c) - 4).toFixed(1)}" y="${(ys(e.p.rps) + dy).toFixed(1)}" text-anchor="end" font-size="10" fill="${COLORS[name]}">${Math.round(e.p.rps)}</text>`);
      }
    }
    const lx = legendX;
    legendX += Math.max(100, 34 + name.length * 6.5);
    out.push(`<rect x="${lx}" y="${H - 30}" width="14" height="4" fill="${COLORS[name]}"/>`);
    out.push(`<text x="${lx + 20}" y="${H - 24}" fill="#111827">${name === BASELINE ? `baseline ${esc(results.setup.baseline ? results.setup.baseline.commit.slice(0, 7) : '')}` : name}</text>`);
  });

  // Panel 2: added latency bars (p50, p99) at each fixed rate, Rosetta and Portkey; log-free,
  // values labelled on the bars.
  const p2 = { x: 560, y: 50, w: 360, h: 290 };
  out.push(`<text x="${p2.x - 40}" y="28" font-size="14" font-weight="600">Added latency vs direct (ms), fixed request rates</text>`);
  const groups = [];
  for (const level of results.addedLatency || []) {
    for (const pct of ['p50', 'p99']) groups.push({ label: pct, sub: `${level.rate} req/s`, values: GATEWAYS.filter((n) => level.added[n]).map((n) => ({ name: n, v: level.added[n][pct] })) });
  }
  if (results.streaming) {
    groups.push({ label: 'TTFT p50', sub: 'streaming', values: GATEWAYS.filter((n) => results.streaming.added[n]).map((n) => ({ name: n, v: results.streaming.added[n].ttftP50 })) });
  }
  const maxAdd = niceMax(Math.max(1, ...groups.flatMap((g) => g.values.map((e) => Math.abs(e.v || 0)))));
  const y2 = (v) => p2.y + p2.h - (Math.max(0, v) / maxAdd) * p2.h;
  for (let i = 0; i <= 5; i += 1) {
    const v = (maxAdd * i) / 5;
    out.push(`<line x1="${p2.x}" y1="${y2(v)}" x2="${p2.x + p2.w}" y2="${y2(v)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${p2.x - 8}" y="${y2(v) + 4}" text-anchor="end" fill="#374151">${f(v, maxAdd < 10 ? 1 : 0)}</text>`);
  }
  out.push(`<line x1="${p2.x}" y1="${p2.y + p2.h}" x2="${p2.x + p2.w}" y2="${p2.y + p2.h}" stroke="#9ca3af"/>`);
  const gw = groups.length ? p2.w / groups.length : p2.w;
  groups.forEach((g, gi) => {
    const n = Math.max(1, g.values.length);
    const bw = Math.min(26, (gw - 10) / n);
    g.values.forEach((e, bi) => {
      if (e.v === null) return;
      const x = p2.x + gi * gw + (gw - n * bw) / 2 + bi * bw;
      const top = y2(e.v);
      const height = p2.y + p2.h - top;
      out.push(`<rect x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${(bw - 2).toFixed(1)}" height="${Math.max(0.5, height).toFixed(1)}" fill="${COLORS[e.name]}"><title>${esc(`${e.name} ${g.label}: ${signed(e.v)} ms`)}</title></rect>`);
      out.push(`<text x="${(x + bw / 2 - 1).toFixed(1)}" y="${(top - 4).toFixed(1)}" text-anchor="middle" font-size="9" fill="#111827">${f(e.v, Math.abs(e.v) >= 10 ? 0 : 1)}</text>`);
    });
    out.push(`<text x="${(p2.x + gi * gw + gw / 2).toFixed(1)}" y="${p2.y + p2.h + 16}" text-anchor="middle" font-size="11" fill="#374151">${esc(g.label)}</text>`);
    out.push(`<text x="${(p2.x + gi * gw + gw / 2).toFixed(1)}" y="${p2.y + p2.h + 30}" text-anchor="middle" font-size="10" fill="#6b7280">${esc(g.sub)}</text>`);
  });
  const target = (results.targets || []).find((t) => t.id === 'added-latency-200rps');
  // Target lines: 1 ms (p50 at 200 req/s), 2 ms (TTFT p50), 5 ms (p99 at 200 req/s).
  const lines = [
    { v: 1, color: '#16a34a', label: '1 ms: p50 target' },
    { v: 2, color: '#7c3aed', label: '2 ms: TTFT target' },
    { v: 5, color: '#dc2626', label: '5 ms: p99 target' },
  ];
  lines.forEach((line, i) => {
    if (line.v > maxAdd) return;
    out.push(`<line x1="${p2.x}" y1="${y2(line.v)}" x2="${p2.x + p2.w}" y2="${y2(line.v)}" stroke="${line.color}" stroke-dasharray="4 3"/>`);
    const lx = p2.x + i * 120;
    out.push(`<line x1="${lx}" y1="${H - 28}" x2="${lx + 16}" y2="${H - 28}" stroke="${line.color}" stroke-dasharray="4 3" stroke-width="2"/>`);
    out.push(`<text x="${lx + 20}" y="${H - 24}" font-size="10" fill="#111827">${line.label}</text>`);
  });
  const note = `${results.plan.mode} run ${results.generatedAt.slice(0, 10)} · ${results.machine.cpuCount} cores · Node ${results.machine.node}${target ? ` · 200 req/s target ${target.met ? 'met' : 'not met'}` : ''}`;
  out.push(`<text x="${W - 20}" y="12" text-anchor="end" font-size="10" fill="#6b7280">${esc(note)}</text>`);
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}

module.exports = { chart };
