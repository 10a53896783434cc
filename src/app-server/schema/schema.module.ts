import { Module } from '@nestjs/common';
import { SchemaController } from './schema.controller';

/** `schema/export`; needs no runtime. */
@Module({ controllers: [SchemaController] })
export class SchemaModule {}
