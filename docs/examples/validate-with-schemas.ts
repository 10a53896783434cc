/** protocol-guide.md "Schemas": validating server messages with the committed JSON Schemas. */
// #region validate
import Ajv2020 from 'ajv/dist/2020';
import serverNotification from 'vv-agent-app-server/schema/app-server/json/ServerNotification.json';
import serverRequest from 'vv-agent-app-server/schema/app-server/json/ServerRequest.json';

const ajv = new Ajv2020({ allowUnionTypes: true });
const validNotification = ajv.compile(serverNotification);
const validServerRequest = ajv.compile(serverRequest);

/** The schema violations of a message the server sent with a `method` ([] when it is valid). */
export function unexpectedShape(message: { id?: unknown; method: string; params?: unknown }): string[] {
  const validate = 'id' in message ? validServerRequest : validNotification;
  if (validate(message)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`);
}
// #endregion validate
