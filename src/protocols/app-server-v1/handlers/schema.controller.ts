/** `schema/export` (protocol.md §3.15): the committed schema files verbatim, never regenerated. */
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import type { MessageTypes } from '../messages';
import { committedSchemaFiles } from '../schema/committed-schema-files';

export type SchemaExportResponse = MessageTypes['SchemaExportResponse'];

@Controller()
export class SchemaController {
  /** Params (absent, null or `{}`) are checked by the dispatcher from the registry's `empty` mode. */
  @MessagePattern('schema/export')
  export(): SchemaExportResponse {
    const files = committedSchemaFiles();
    return { jsonSchema: { ...files.jsonSchema }, typescript: { ...files.typescript } };
  }
}
