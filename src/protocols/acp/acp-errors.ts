/** The ACP answers to what the core refuses and to bad input (docs/spec/acp.md §2). One table. */
import { RequestError } from '@agentclientprotocol/sdk';
import { DomainError } from '../../core/domain-error';
import { causeMessage } from '../../runtime/cause-message';

export const ACP_ERROR_CODES = {
  invalidParams: -32602,
  internalError: -32603,
  sessionNotFound: -32002,
} as const;

export const AcpErrors = {
  sessionNotFound: (sessionId: string): RequestError =>
    new RequestError(ACP_ERROR_CODES.sessionNotFound, `Session not found: ${sessionId}`),
  activePrompt: (): RequestError =>
    new RequestError(ACP_ERROR_CODES.invalidParams, 'Session already has an active prompt'),
  /** `member` names what is wrong: `cwd: must be an absolute path`. */
  invalidParams: (member: string): RequestError =>
    new RequestError(ACP_ERROR_CODES.invalidParams, `Invalid params: ${member}`),
  turnFailed: (message: string): RequestError => new RequestError(ACP_ERROR_CODES.internalError, message),
};

/** A core refusal in the words of ACP; anything else is an internal error with its message. */
export function toAcpError(error: unknown, sessionId?: string): RequestError {
  if (error instanceof RequestError) return error;
  if (error instanceof DomainError) {
    switch (error.kind) {
      case 'ThreadNotFound':
        return AcpErrors.sessionNotFound(sessionId ?? '');
      case 'ThreadAlreadyHasActiveTurn':
        return AcpErrors.activePrompt();
      case 'ThreadArchived':
        return AcpErrors.invalidParams(`sessionId: ${error.message}`);
      case 'InvalidCursor':
        return AcpErrors.invalidParams(`cursor: ${error.message}`);
      default:
        break;
    }
  }
  return new RequestError(ACP_ERROR_CODES.internalError, causeMessage(error));
}
