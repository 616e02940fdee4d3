import { Global, Module } from '@nestjs/common';
import { UsageRecorderService } from './usage-recorder.service';
import { UsageRepository } from './usage.repository';

@Global()
@Module({ providers: [UsageRepository, UsageRecorderService], exports: [UsageRecorderService, UsageRepository] })
export class UsageModule {}
