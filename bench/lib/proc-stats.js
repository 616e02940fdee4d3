/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// A process's memory and CPU from /proc, with its descendants (a Rosetta primary's WORKERS).
const { execFileSync } = require('node:child_process');
const { readdirSync, readFileSync } = require('node:fs');

let clockTicks;
function clkTck() {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * A process and all its descendants (a Rosetta primary and its WORKERS), from /proc's per-thread
 * `children` lists; just [pid] where the kernel does not keep them.
 */
function processTree(pid) {
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) {
    let tasks = [];
    try {
      tasks = readdirSync(`/proc/${tree[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = readFileSync(`/proc/${tree[i]}/task/${task}/children`, 'utf8').trim();
        if (children) tree.push(...children.split(/\s+/).map(Number));
      } catch {
        /* gone, or no children list */
      }
    }
  }
  return tree;
}

/** Resident memory in bytes (VmRSS) of a process and its descendants, or null when it is gone. */
function readRss(pid) {
  const values = processTree(pid).map(readOwnRss);
  return values[0] === null ? null : values.reduce((sum, value) => sum + (value || 0), 0);
}

/** User + system CPU seconds of a process and its descendants still running, or null when it is gone. */
function readTreeCpuSeconds(pid) {
  const values = processTree(pid).map(readCpuSeconds);
  return values[0] === null ? null : values.reduce((sum, value) => sum + (value || 0), 0);
}

function readOwnRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
    return match ? Number(match[1]) * 1024 : null;
  } catch {
    return null;
  }
}

/** User + system CPU time of a process in seconds (/proc/<pid>/stat utime + stime), or null. */
function readCpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const utime = Number(fields[11]);
    const stime = Number(fields[12]);
    return (utime + stime) / clkTck();
  } catch {
    return null;
  }
}

/**
 * The whole machine's CPU time from /proc/stat, in seconds: {busy, total} summed over all cores
 * (busy = user + nice + system + irq + softirq + steal), or null.
 */
function readMachineCpu() {
  try {
    const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    const busy = user + nice + system + irq + softirq + (steal || 0);
    return { busy: busy / clkTck(), total: (busy + idle + iowait) / clkTck() };
  } catch {
    return null;
  }
}

module.exports = { processTree, readRss, readCpuSeconds, readTreeCpuSeconds, readMachineCpu };
