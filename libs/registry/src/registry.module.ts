import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';
import { RegistryRepository } from './registry.repository';
import { RegistrySeederService } from './registry-seeder.service';
import { RegistryWriterService } from './registry-writer.service';
import { RegistryService } from './registry.service';

@Module({
  controllers: [ModelsController],
  providers: [RegistryRepository, RegistryWriterService, RegistrySeederService, RegistryService],
  exports: [RegistryService, RegistryWriterService],
})
export class RegistryModule {}
