import { Module } from '@nestjs/common';
import { ModelsController } from './models.controller';

/** `model/list`; the host comes from the global APP_SERVER_HOST binding of AppServerModule. */
@Module({ controllers: [ModelsController] })
export class ModelsModule {}
