import { Global, Module } from '@nestjs/common';
import { AttributionReportRepository } from './attribution/attribution-report.repository';
import { EndUserSpendRepository } from './attribution/end-user-spend.repository';
import { LedgerHoursRepository } from './ledger/ledger-hours.repository';
import { LedgerMaintenanceService } from './ledger/ledger-maintenance.service';
import { LedgerPartitionsRepository } from './ledger/ledger-partitions.repository';
import { LedgerRollupRepository } from './ledger/ledger-rollup.repository';
import { UsageRecorderService } from './usage-recorder.service';
import { UsageReportRepository } from './usage-report.repository';
import { UsageRepository } from './usage.repository';

@Global()
@Module({
  providers: [
    UsageRepository, UsageRecorderService, UsageReportRepository, LedgerPartitionsRepository, LedgerRollupRepository, LedgerHoursRepository, LedgerMaintenanceService,
    AttributionReportRepository, EndUserSpendRepository,
  ],
  exports: [UsageRecorderService, UsageRepository, UsageReportRepository, LedgerMaintenanceService, AttributionReportRepository, EndUserSpendRepository],
})
export class UsageModule {}
