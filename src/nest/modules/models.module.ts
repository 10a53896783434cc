import { Module } from '@nestjs/common';
import { ModelsHandlers } from '../../protocols/app-server-v1/handlers/models.handlers';

/** `model/list`; the host comes from the global APP_SERVER_HOST binding of AppServerModule. */
@Module({ providers: [ModelsHandlers] })
export class ModelsModule {}
