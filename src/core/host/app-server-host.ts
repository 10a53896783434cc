/** The product integration boundary (docs/spec/protocol.md §10.1). The server only calls this interface. */
import type { Agent } from '../../runtime/agent';
import type { RunConfig } from '../../runtime/run-config';
import type { AppModelInfo } from '../model/types';

export interface HostTurnRequest {
  threadId: string;
  agentKey: string;
  /** The thread's cwd, verbatim. */
  cwd: string | null;
  /** Thread metadata overlaid key-by-key by the turn's start metadata (turn wins). */
  metadata: Record<string, unknown>;
}

export interface ModelListParams {
  agentKey?: string;
  provider?: string;
}

export interface AppServerHost {
  resolveAgent(request: HostTurnRequest): Promise<Agent>;
  buildRunConfig(request: HostTurnRequest): Promise<RunConfig>;
  listModels(params: ModelListParams): Promise<{ models: AppModelInfo[] }>;
}

/** Nest injection token of the AppServerHost provider. */
export const APP_SERVER_HOST = Symbol('APP_SERVER_HOST');
