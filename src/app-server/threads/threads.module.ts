import { Module } from '@nestjs/common';
import { PersistenceModule } from '../persistence/persistence.module';
import { ThreadStateModule } from './thread-state.module';
import { ThreadsController } from './threads.controller';
import { ThreadsService } from './threads.service';

/** `thread/*` (protocol.md §3.3–§3.8). */
@Module({
  imports: [PersistenceModule, ThreadStateModule],
  controllers: [ThreadsController],
  providers: [ThreadsService],
  exports: [ThreadsService],
})
export class ThreadsModule {}
