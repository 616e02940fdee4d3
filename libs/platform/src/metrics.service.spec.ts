import { MetricsService } from './metrics.service';

describe('MetricsService', () => {
  it('renders counters with escaped labels, summed per series', async () => {
    const metrics = new MetricsService();
    const c = metrics.counter('demo_total', 'A demo.', ['model', 'status']);
    c.inc(['a"b\\c\nd', '200']);
    c.inc(['a"b\\c\nd', '200'], 2);
    c.inc(['x', '500'], 0.5);
    c.inc(['x', '500'], -3); // counters never go down
    expect(metrics.counter('demo_total', 'again', ['model', 'status'])).toBe(c);
    const text = await metrics.render();
    expect(text).toContain('# HELP demo_total A demo.\n# TYPE demo_total counter\n');
    expect(text).toContain('demo_total{model="a\\"b\\\\c\\nd",status="200"} 3\n');
    expect(text).toContain('demo_total{model="x",status="500"} 0.5\n');
  });

  it('keeps counting across scrapes: increments gathered between two scrapes add to the total', async () => {
    const metrics = new MetricsService();
    const c = metrics.counter('ticks_total', 'Ticks.', ['kind']);
    c.inc(['a'], 2);
    expect(await metrics.render()).toContain('ticks_total{kind="a"} 2\n');
    expect(await metrics.render()).toContain('ticks_total{kind="a"} 2\n');
    c.inc(['a']);
    c.inc(['b'], 0.25);
    const text = await metrics.render();
    expect(text).toContain('ticks_total{kind="a"} 3\n');
    expect(text).toContain('ticks_total{kind="b"} 0.25\n');
    metrics.onModuleDestroy();
  });

  it('renders histograms with cumulative buckets, +Inf, sum and count', async () => {
    const metrics = new MetricsService();
    const h = metrics.histogram('lat_seconds', 'Latency.', ['dialect'], [0.1, 1]);
    for (const v of [0.05, 0.1, 0.5, 3, NaN]) h.observe(['openai'], v);
    const lines = (await metrics.render()).split('\n').filter((l) => l.startsWith('lat_seconds'));
    expect(lines).toEqual([
      'lat_seconds_bucket{dialect="openai",le="0.1"} 2',
      'lat_seconds_bucket{dialect="openai",le="1"} 3',
      'lat_seconds_bucket{dialect="openai",le="+Inf"} 4',
      'lat_seconds_sum{dialect="openai"} 3.65',
      'lat_seconds_count{dialect="openai"} 4',
    ]);
  });

  it('reads gauges at scrape time and leaves out one whose reader fails', async () => {
    const metrics = new MetricsService();
    let depth = 1;
    metrics.gauge('queue_depth', 'Depth.', () => [{ value: depth }]);
    metrics.gauge('broken', 'Throws.', () => {
      throw new Error('no');
    });
    depth = 7;
    const text = await metrics.render();
    expect(text).toContain('queue_depth 7\n');
    expect(text).not.toContain('broken');
    expect(text).toMatch(/^process_resident_memory_bytes \d+$/m);
  });

  it('reports process CPU as a counter, open descriptors, and the event-loop delay of the last window', async () => {
    const metrics = new MetricsService();
    // Block the loop for 60 ms of busy work between two sampling ticks, then let a tick land.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const until = Date.now() + 60;
    while (Date.now() < until) Math.sqrt(Math.random());
    await new Promise((resolve) => setTimeout(resolve, 30));
    // Nothing is reported until a window has closed (every minute; here by hand).
    expect(await metrics.render()).not.toContain('nodejs_eventloop_delay_seconds{');
    metrics.closeLoopWindow();
    const text = await metrics.render();
    expect(text).toContain('# TYPE process_cpu_seconds_total counter\n');
    expect(Number(/^process_cpu_seconds_total (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(0);
    expect(Number(/^process_open_fds (\S+)$/m.exec(text)?.[1])).toBeGreaterThan(2);
    const max = Number(/^nodejs_eventloop_delay_seconds\{quantile="1"\} (\S+)$/m.exec(text)?.[1]);
    expect(max).toBeGreaterThanOrEqual(0.04);
    // A second scrape (another scraper) sees the same window, not an emptied one.
    expect(await metrics.render()).toContain(/^nodejs_eventloop_delay_seconds\{quantile="1"\} .*$/m.exec(text)![0]);
    metrics.onModuleDestroy();
  });

  it("adds prom-client's default process, heap, GC and event-loop metrics, each once", async () => {
    const metrics = new MetricsService();
    const text = await metrics.render();
    const families = [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map(([, name, type]) => `${name} ${type}`);
    expect(families).toEqual(expect.arrayContaining([
      'process_cpu_seconds_total counter',
      'process_start_time_seconds gauge',
      'process_resident_memory_bytes gauge',
      'process_open_fds gauge',
      'nodejs_heap_size_used_bytes gauge',
      'nodejs_heap_size_total_bytes gauge',
      'nodejs_gc_duration_seconds histogram',
      'nodejs_eventloop_lag_p99_seconds gauge',
      'nodejs_active_resources_total gauge',
      'nodejs_eventloop_delay_seconds gauge',
    ]));
    // No family twice, and none of the hand-written names prom-client's replace.
    expect(new Set(families).size).toBe(families.length);
    expect(families.filter((f) => /^(nodejs_heap_used_bytes|nodejs_heap_total_bytes|process_uptime_seconds) /.test(f))).toEqual([]);
    metrics.onModuleDestroy();
  });
});
