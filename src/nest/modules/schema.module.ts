import { Module } from '@nestjs/common';
import { SchemaController } from '../../protocols/app-server-v1/handlers/schema.controller';

/** `schema/export`; needs no runtime. */
@Module({ controllers: [SchemaController] })
export class SchemaModule {}
