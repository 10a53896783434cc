/**
 * embedding-guide.md "A custom AppServerHost": per-tenant agents, workspaces, approval policy and
 * model catalog, read fresh from a directory on every turn.
 */
// #region directory
import { Injectable } from '@nestjs/common';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import {
  Agent,
  type AppModelInfo,
  type AppServerHost,
  type ApprovalPolicy,
  type BuiltinToolName,
  type HostTurnRequest,
  type ModelListParams,
  type ModelRef,
  type RunConfig,
} from 'vv-agent-app-server';

export interface Tenant {
  id: string;
  instructions: string;
  model: ModelRef;
  tools: BuiltinToolName[];
  approvalPolicy: ApprovalPolicy;
  /** Each thread gets `<workspaceRoot>/<threadId>`. */
  workspaceRoot: string;
  models: AppModelInfo[];
}

/** Stands in for the product's tenant database; edits take effect on the next turn. */
@Injectable()
export class TenantDirectory {
  private readonly tenants = new Map<string, Tenant>();

  put(tenant: Tenant): void {
    this.tenants.set(tenant.id, tenant);
  }

  get(id: unknown): Tenant {
    const tenant = typeof id === 'string' ? this.tenants.get(id) : undefined;
    // The message reaches the client as -32603; no turn is created.
    if (tenant === undefined) throw new Error(`unknown tenant: ${String(id)}`);
    return tenant;
  }

  all(): Tenant[] {
    return [...this.tenants.values()];
  }
}
// #endregion directory

// #region host
/** Routes every turn by the `tenant` member of the thread (or turn) metadata. */
export class TenantHost implements AppServerHost {
  constructor(private readonly tenants: TenantDirectory) {}

  async resolveAgent(request: HostTurnRequest): Promise<Agent> {
    const tenant = this.tenants.get(request.metadata.tenant);
    return Agent.create({
      name: request.agentKey.trim() || 'assistant',
      instructions: tenant.instructions,
      model: tenant.model,
      tools: tenant.tools,
      maxCycles: 40,
    });
  }

  async buildRunConfig(request: HostTurnRequest): Promise<RunConfig> {
    const tenant = this.tenants.get(request.metadata.tenant);
    const workspace = join(tenant.workspaceRoot, request.threadId);
    await mkdir(workspace, { recursive: true });
    return {
      workspace,
      approvalPolicy: tenant.approvalPolicy,
      approvalTimeoutMs: 120_000, // the server's approval timer for this turn
      noToolPolicy: 'continue',
      // The server adds thread_id, turn_id and session_id (and overwrites spoofed ones).
      metadata: { tenant_id: tenant.id },
    };
  }

  async listModels(params: ModelListParams): Promise<{ models: AppModelInfo[] }> {
    const models = this.tenants.all().flatMap((tenant) => tenant.models);
    return {
      models: models.filter((model) => params.provider === undefined || model.provider === params.provider),
    };
  }
}
// #endregion host
