import { Module } from '@nestjs/common';
import { ModelsEndpoint } from './models-endpoint.service';
import { RegistryRepository } from './registry.repository';
import { RegistrySeederService } from './registry-seeder.service';
import { RegistryWriterService } from './registry-writer.service';
import { RegistryService } from './registry.service';

@Module({
  providers: [RegistryRepository, RegistryWriterService, RegistrySeederService, RegistryService, ModelsEndpoint],
  exports: [RegistryService, RegistryWriterService, ModelsEndpoint],
})
export class RegistryModule {}
