import { Controller, Get, Header, UseGuards } from '@nestjs/common';
import { Public } from '@rosetta/auth';
import { MetricsService } from '@rosetta/platform';
import { AdminGuard } from './admin.guard';

/**
 * `GET /metrics`: this replica's counters, histograms and gauges in the Prometheus text format.
 * Behind the admin token (Prometheus sends it with `authorization: {credentials: …}`): the
 * figures name models, providers and traffic, which callers with an API key need not see.
 */
@Public()
@UseGuards(AdminGuard)
@Controller()
export class MetricsController {
  constructor(private readonly metrics: MetricsService) {}

  @Get('metrics')
  @Header('content-type', 'text/plain; version=0.0.4; charset=utf-8')
  @Header('cache-control', 'no-store')
  render(): Promise<string> {
    return this.metrics.render();
  }
}
