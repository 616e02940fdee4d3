/* eslint-disable @typescript-eslint/no-require-imports -- plain CommonJS scripts run by node, outside the TypeScript build */
'use strict';
// The bench stage for issue 28's bar: the CPU a cloud call's credentials add per request (SigV4
// for Bedrock, a cached Google token for Vertex) over an unsigned call, measured in a process of
// its own (bench/cloud-signing-probe.js) on the gateway's built code, so the variables it sets
// (static AWS keys, a loopback metadata server) touch nothing else.
const { execFile } = require('node:child_process');
const { join } = require('node:path');

/** Per request, in microseconds: 0.1 ms is the ceiling. */
const CEILING_MICROS = 100;

function cloudSigning(root) {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, [join(__dirname, '..', 'cloud-signing-probe.js'), root], { timeout: 300_000 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`cloud-signing probe failed: ${stderr || error.message}`));
      const result = JSON.parse(stdout.trim().split('\n').pop());
      result.ceilingMicros = CEILING_MICROS;
      result.withinCeiling = Object.values(result.addedCpuMicros).every((micros) => micros <= CEILING_MICROS);
      resolve(result);
    });
  });
}

module.exports = { cloudSigning, CEILING_MICROS };
