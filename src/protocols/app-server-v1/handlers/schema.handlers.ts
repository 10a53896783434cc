/** `schema/export` (docs/spec/protocol.md §3.15): the committed schema files verbatim, never regenerated. */
import { Injectable } from '@nestjs/common';
import { RpcMethod } from './rpc-method';
import type { MessageTypes } from '../messages';
import { committedSchemaFiles } from '../schema/committed-schema-files';

export type SchemaExportResponse = MessageTypes['SchemaExportResponse'];

@Injectable()
export class SchemaHandlers {
  /** Params (absent, null or `{}`) are checked by the dispatcher from the registry's `empty` mode. */
  @RpcMethod('schema/export')
  export(): SchemaExportResponse {
    const files = committedSchemaFiles();
    return { jsonSchema: { ...files.jsonSchema }, typescript: { ...files.typescript } };
  }
}
