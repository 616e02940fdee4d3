// The Node flags the gateway runs with wherever it is started: `npm start` (start.js), the image's
// CMD (Dockerfile, checked against this list by test/runtime-layout.e2e-spec.ts) and the
// benchmarks (bench/lib/stack.js). node:cluster workers inherit them.
//
// --max-semi-space-size=64: a young generation of up to 64 MB per semi-space instead of V8's 16.
// With thousands of slow streams, the state a stream holds while it waits for its next chunk
// outlived two collections of the smaller space, was promoted, and became old-generation garbage
// that grew the heap to four times what was live; the larger space lets it die young. Throughput
// is unchanged or better (fewer scavenges). Decision 0018, docs/benchmarks/2026-11-27-stream-memory.md.
module.exports = { GATEWAY_NODE_FLAGS: ['--enable-source-maps', '--max-semi-space-size=64'] };
