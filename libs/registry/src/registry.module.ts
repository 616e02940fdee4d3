import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';
import { RegistryService } from './registry.service';

@Module({ controllers: [ModelsController], providers: [RegistryService], exports: [RegistryService] })
export class RegistryModule {}
