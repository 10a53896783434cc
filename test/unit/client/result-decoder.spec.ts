/**
 * Result decoding (docs/spec/protocol.md §13 "decode failure") and the client's registry-derived types: the
 * type assertions below are checked by `tsc -p tsconfig.json`.
 */
import type {
  ApprovalResponse,
  ClientInfo,
  ParamsOf,
  ResultOf,
  ServerMessage,
  ThreadStartParams,
} from '../../../src/client';
import { resultDecodingProblem } from '../../../src/client/result-decoder';
import type * as Wire from '../../../src/core/model/types';

type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Assert<T extends true> = T;

export type TypeChecks = [
  Assert<Equal<ResultOf<'turn/start'>, { threadId: string; turnId: string; status: 'running' }>>,
  Assert<Equal<ResultOf<'thread/archive'>, { threadId: string; archived: true }>>,
  Assert<Equal<ResultOf<'thread/start'>['cwd'], string | null>>,
  Assert<Equal<ResultOf<'model/list'>['models'][number]['contextLength'], number | undefined>>,
  Assert<Equal<ThreadStartParams['cwd'], string | null | undefined>>,
  Assert<Equal<ClientInfo['name'], string>>,
  Assert<Equal<ParamsOf<'schema/export'>, Record<string, never>>>,
  Assert<Equal<ApprovalResponse['decision'], Wire.ApprovalDecisionValue>>,
  Assert<
    Equal<
      Extract<ServerMessage, { method: 'turn/completed' }>['params']['status'],
      'completed' | 'failed' | 'interrupted'
    >
  >,
];

// The client's data types are usable where the server's wire types are expected.
export function wireCompatible(
  result: ResultOf<'thread/read'>,
): [Wire.AppThread, Wire.AppTurn[], Wire.AppItem[]] {
  return [result.thread, result.turns, result.items];
}

describe('resultDecodingProblem', () => {
  it.each([
    ['TurnStartResponse', { threadId: 't', turnId: 'u', status: 'running' }, null],
    [
      'TurnStartResponse',
      { threadId: 't', turnId: 'u', status: 'done' },
      'result/status must be equal to constant',
    ],
    [
      'ThreadStartResponse',
      { threadId: 't', agentKey: 'a', status: 'idle' },
      "result must have required property 'cwd'",
    ],
    [
      'InitializeResponse',
      {
        userAgent: 'vv-agent-app-server',
        protocolVersion: 'v1',
        capabilities: {
          modelList: true,
          threadLifecycle: false,
          notificationOptOut: true,
          schemaExport: true,
          approvalResolve: true,
        },
        serverInfo: {},
      },
      'result must NOT have additional properties (serverInfo)',
    ],
    ['ApprovalResolveResponse', {}, null],
    ['ApprovalResolveResponse', { ok: true }, 'result must NOT have additional properties (ok)'],
    [
      'ModelListResponse',
      { models: [{ id: 'm' }] },
      "result/models/0 must have required property 'supportsTools'",
    ],
    ['NoSuchType', { anything: 1 }, null],
  ])('%s %j → %s', (typeName, value, problem) => {
    expect(resultDecodingProblem(typeName, value)).toBe(problem);
  });
});
