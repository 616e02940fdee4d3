import { Module } from '@nestjs/common';
import { AuthModule } from '@rosetta/auth';
import { BudgetService } from './budget.service';

/** Dollar budgets (BudgetService). Needs the global PlatformModule, PersistenceModule and UsageModule. */
@Module({
  imports: [AuthModule],
  providers: [BudgetService],
  exports: [BudgetService],
})
export class BudgetModule {}
