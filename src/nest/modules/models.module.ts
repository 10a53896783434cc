import { Module } from '@nestjs/common';
import { ModelsController } from '../../protocols/app-server-v1/handlers/models.controller';

/** `model/list`; the host comes from the global APP_SERVER_HOST binding of AppServerModule. */
@Module({ controllers: [ModelsController] })
export class ModelsModule {}
