import { Module } from '@nestjs/common';
import { AuthModule } from '@rosetta/auth';
import { LimitsModule } from '@rosetta/limits';
import { AdminKeysController } from './admin-keys.controller';
import { AdminPlansController } from './admin-plans.controller';
import { AdminGuard } from './admin.guard';
import { AdminTokenService } from './admin-token.service';
import { SettingRepository } from './setting.repository';

@Module({
  imports: [AuthModule, LimitsModule],
  controllers: [AdminKeysController, AdminPlansController],
  providers: [SettingRepository, AdminTokenService, AdminGuard],
})
export class AdminModule {}
