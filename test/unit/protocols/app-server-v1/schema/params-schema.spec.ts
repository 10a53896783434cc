/**
 * Params schemas come from the same DTOs the server validates with (docs/spec/protocol.md §11.1): for a table
 * of samples, the DTO validator and the committed `ClientRequest` schema agree on valid / invalid.
 */
import { IsEmail } from 'class-validator';
import { validateAgainstDto } from '../../../../../src/protocols/app-server-v1/params-validator';
import { findClientRequest } from '../../../../../src/protocols/app-server-v1/registry';
import { paramsSchemas } from '../../../../../src/protocols/app-server-v1/schema/params-schema';
import { schemaErrors } from '../../../../helpers/schema-validation';

const T = 'thread_2149e90a711b4156a28c59a0f06ebc63';
const client = { clientInfo: { name: 'a' } };

const SAMPLES: Array<[method: string, params: Record<string, unknown>, valid: boolean]> = [
  ['initialize', client, true],
  ['initialize', { ...client, extra: 1 }, true],
  ['initialize', { clientInfo: { name: 'a', title: 't', version: '1' } }, true],
  ['initialize', {}, false],
  ['initialize', { clientInfo: null }, false],
  ['initialize', { clientInfo: { name: '' } }, false],
  ['initialize', { clientInfo: { name: ' \t' } }, false],
  ['initialize', { clientInfo: { name: 'a', title: 3 } }, false],
  ['initialize', { ...client, capabilities: null }, false],
  ['initialize', { ...client, capabilities: { experimentalApi: 'yes' } }, false],
  ['initialize', { ...client, capabilities: { optOutNotificationMethods: ['x', 1] } }, false],
  ['initialize', { ...client, capabilities: { optOutNotificationMethods: ['turn/started'] } }, true],
  ['thread/start', {}, true],
  ['thread/start', { agentKey: '', cwd: null, metadata: { a: [1] } }, true],
  ['thread/start', { cwd: 3 }, false],
  ['thread/start', { agentKey: null }, false],
  ['thread/start', { metadata: null }, false],
  ['thread/start', { metadata: [] }, false],
  ['thread/resume', { threadId: T, subscribe: false, afterItemId: 'item_x' }, true],
  ['thread/resume', { threadId: T, subscribe: 'no' }, false],
  ['thread/resume', { threadId: null }, false],
  ['thread/read', { threadId: T, limit: 1 }, true],
  ['thread/read', { threadId: T, limit: 0 }, false],
  ['thread/read', { threadId: T, limit: 2.5 }, false],
  ['thread/read', { threadId: T, limit: '3' }, false],
  ['thread/list', { archived: true, includeArchived: false, limit: 500, cursor: 'c' }, true],
  ['thread/list', { limit: 501 }, false],
  ['thread/list', { limit: 0 }, false],
  ['thread/list', { cursor: 5 }, false],
  ['thread/archive', { threadId: T }, true],
  ['thread/archive', {}, false],
  ['thread/unsubscribe', { threadId: 1 }, false],
  ['turn/start', { threadId: T, input: [] }, true],
  ['turn/start', { threadId: T, input: [{}, { type: 'image', url: 'u' }], metadata: {} }, true],
  ['turn/start', { threadId: T, input: [1] }, false],
  ['turn/start', { threadId: T, input: null }, false],
  ['turn/start', { threadId: T, input: {} }, false],
  ['turn/start', { threadId: T, input: [], metadata: 'x' }, false],
  ['turn/steer', { threadId: T, input: [], expectedTurnId: '' }, true],
  ['turn/steer', { threadId: T, input: [], expectedTurnId: null }, false],
  ['turn/followUp', { threadId: T }, false],
  ['turn/interrupt', { threadId: T, reason: 'stop' }, true],
  ['turn/interrupt', { threadId: T, reason: 1 }, false],
  ['approval/resolve', { threadId: T, turnId: 'u', requestId: 'r', decision: 'allow_session' }, true],
  ['approval/resolve', { threadId: T, turnId: 'u', requestId: 'r', decision: 'ALLOW' }, false],
  ['approval/resolve', { threadId: T, turnId: 'u', requestId: 'r', decision: 'deny', reason: 5 }, false],
  ['approval/resolve', { threadId: T, turnId: 'u', requestId: 'r', decision: 'deny', metadata: 'm' }, false],
  ['model/list', { agentKey: 'a', provider: 'p' }, true],
  ['model/list', { agentKey: 5 }, false],
];

describe('params schemas and the DTO validator', () => {
  it.each(SAMPLES)('%s %j → valid %s for both', (method, params, valid) => {
    const spec = findClientRequest(method);
    if (spec?.paramsDto == null) throw new Error(`no DTO for ${method}`);
    const dtoValid = validateAgainstDto(spec.paramsDto, params).issues.length === 0;
    const schemaValid = schemaErrors('ClientRequest', { jsonrpc: '2.0', id: 1, method, params }).length === 0;
    expect({ dtoValid, schemaValid }).toEqual({ dtoValid: valid, schemaValid: valid });
  });

  it('refuses a DTO rule it has no JSON Schema mapping for', () => {
    class WithEmail {
      @IsEmail()
      email!: string;
    }
    expect(() => paramsSchemas(WithEmail)).toThrow(
      /no JSON Schema mapping for rule isEmail \(WithEmail\.email\)/,
    );
  });
});
