import { Module } from '@nestjs/common';
import { SchemaHandlers } from '../../protocols/app-server-v1/handlers/schema.handlers';

/** `schema/export`; needs no runtime. */
@Module({ providers: [SchemaHandlers] })
export class SchemaModule {}
