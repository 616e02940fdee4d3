import { Module } from '@nestjs/common';
import { PlanCacheService } from './plan-cache.service';
import { PlanRepository } from './plan.repository';

@Module({
  providers: [PlanRepository, PlanCacheService],
  exports: [PlanRepository, PlanCacheService],
})
export class LimitsModule {}
