/**
 * DomainError → the §6 error table (docs/spec/protocol.md §6, docs/spec/history.md §2): what a client receives for each
 * refusal of the core, stated literally so a change of code, message or data fails here.
 */
import { DomainError, DomainErrors } from '../../../../src/core/domain-error';
import { InvalidThreadCursorError } from '../../../../src/persistence/typeorm/store-errors';
import { toRpcError } from '../../../../src/protocols/app-server-v1/errors';
import { RpcError } from '../../../../src/rpc/rpc-error';

describe('toRpcError', () => {
  it.each<[string, DomainError, object]>([
    ['thread not found', DomainErrors.threadNotFound(), { code: -32020, message: 'Thread not found' }],
    ['thread archived', DomainErrors.threadArchived(), { code: -32021, message: 'Thread archived' }],
    [
      'active turn exists',
      DomainErrors.threadAlreadyHasActiveTurn(),
      { code: -32602, message: 'Thread already has an active turn' },
    ],
    [
      'fork turn not found',
      DomainErrors.forkTurnNotFound(),
      { code: -32602, message: 'Turn not found in thread' },
    ],
    [
      'fork without a finished turn',
      DomainErrors.forkNoFinishedTurn(),
      { code: -32602, message: 'Thread has no finished turn' },
    ],
    [
      'unknown approval request',
      DomainErrors.unknownApprovalRequest(),
      { code: -32602, message: 'Unknown approval request' },
    ],
    [
      'follow-up queue full',
      DomainErrors.followUpQueueFull(16),
      { code: -32602, message: 'Follow-up queue is full', data: { limit: 16 } },
    ],
    [
      'active turn not found',
      DomainErrors.activeTurnNotFound(),
      { code: -32030, message: 'Active turn not found' },
    ],
    ['turn id mismatch', DomainErrors.turnIdMismatch(), { code: -32031, message: 'Turn id mismatch' }],
    [
      'runtime not configured',
      DomainErrors.runtimeNotConfigured(),
      { code: -32603, message: 'App Server runtime is not configured' },
    ],
    [
      'internal failure',
      DomainErrors.internal(new Error('disk gone')),
      { code: -32603, message: 'disk gone' },
    ],
    [
      "the store's invalid cursor",
      new InvalidThreadCursorError(),
      {
        code: -32602,
        message: 'Invalid params: /cursor is invalid',
        data: { errors: [{ path: '/cursor', message: 'is invalid' }] },
      },
    ],
  ])('maps %s', (_name, error, wire) => {
    expect(toRpcError(error).toErrorObject()).toEqual(wire);
  });

  it('passes an RpcError through and answers anything else with -32603 and its message', () => {
    const rpc = new RpcError(-32011, 'Already initialized');
    expect(toRpcError(rpc)).toBe(rpc);
    expect(toRpcError('plain text').toErrorObject()).toEqual({ code: -32603, message: 'plain text' });
  });

  it('keeps the message a follow-up warning reports equal to the response message', () => {
    expect(DomainErrors.threadArchived().message).toBe('Thread archived');
  });
});
