'use strict';
// Reads a V8 .cpuprofile (written by `node --cpu-prof`) and summarises where the time went:
// self time per function and per module (package, Rosetta library, Node internals), and
// inclusive time per module (time with at least one frame of that module on the stack).
// Samples can be restricted to a window of CLOCK_MONOTONIC microseconds, the clock of both the
// profile's timestamps and process.hrtime, so start-up and shut-down are left out.

function moduleOf(url) {
  if (!url) return '(native / V8)';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return `npm:${nm[1]}`;
  const lib = /dist\/(libs|apps)\/([^/]+)\//.exec(url);
  if (lib) return `rosetta:${lib[1]}/${lib[2]}`;
  const internal = /^node:(?:internal\/)?([^/]+(?:\/[^/]+)?)/.exec(url);
  if (internal) return `node:${internal[1].replace(/\.js$/, '')}`;
  return url.replace(/^file:\/\//, '');
}

function shortUrl(url) {
  if (!url) return '';
  return url
    .replace(/^file:\/\//, '')
    .replace(/^.*?node_modules\//, '')
    .replace(/^.*?\/dist\//, 'dist/');
}

/**
 * summarise(profile, {fromUs, toUs, top}) → {sampledMs, windowApplied, selfByFunction[],
 * selfByModule[], inclusiveByModule[], inclusiveByFunction[]} with percentages of sampled time.
 */
function summarise(profile, { fromUs, toUs, top = 30 } = {}) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map();
  for (const n of profile.nodes) for (const c of n.children || []) parent.set(c, n.id);

  // Timestamps: startTime + running sum of timeDeltas; sample i lasts until sample i+1.
  const times = new Array(profile.samples.length);
  let t = profile.startTime;
  for (let i = 0; i < profile.samples.length; i += 1) {
    t += profile.timeDeltas[i];
    times[i] = t;
  }
  let windowApplied = false;
  if (fromUs !== undefined && toUs !== undefined && fromUs < profile.endTime && toUs > profile.startTime) windowApplied = true;

  const selfFn = new Map();
  const selfMod = new Map();
  const inclMod = new Map();
  const inclFn = new Map();
  let total = 0;
  const add = (map, key, value, extra) => {
    const entry = map.get(key) || { key, us: 0, ...extra };
    entry.us += value;
    map.set(key, entry);
  };
  for (let i = 0; i < profile.samples.length; i += 1) {
    const start = times[i];
    const end = i + 1 < times.length ? times[i + 1] : profile.endTime;
    if (windowApplied && (start < fromUs || start > toUs)) continue;
    const dur = Math.max(0, end - start);
    if (dur === 0) continue;
    total += dur;
    const node = nodes.get(profile.samples[i]);
    const cf = node.callFrame;
    const fnKey = `${cf.functionName || '(anonymous)'} ${shortUrl(cf.url)}:${cf.lineNumber + 1}`;
    add(selfFn, fnKey, dur, { functionName: cf.functionName || '(anonymous)', url: shortUrl(cf.url), line: cf.lineNumber + 1, module: moduleOf(cf.url) });
    add(selfMod, moduleOf(cf.url), dur);
    // Inclusive: each module / function once per sample, whatever the recursion.
    const seenMod = new Set();
    const seenFn = new Set();
    for (let id = node.id; id !== undefined; id = parent.get(id)) {
      const frame = nodes.get(id).callFrame;
      if (frame.functionName === '(root)') continue;
      seenMod.add(moduleOf(frame.url));
      seenFn.add(`${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`);
    }
    for (const m of seenMod) add(inclMod, m, dur);
    for (const f of seenFn) add(inclFn, f, dur);
  }
  const rank = (map, n) =>
    [...map.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, n)
      .map((e) => ({ ...e, ms: Math.round(e.us / 100) / 10, pct: total ? Math.round((1000 * e.us) / total) / 10 : 0, us: undefined }));
  return {
    sampledMs: Math.round(total / 1000),
    windowApplied,
    selfByFunction: rank(selfFn, top),
    selfByModule: rank(selfMod, top),
    inclusiveByModule: rank(inclMod, top),
    inclusiveByFunction: rank(inclFn, top * 2),
  };
}

module.exports = { summarise, moduleOf };
