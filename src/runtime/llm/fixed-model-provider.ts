/** The CLI's one-model provider (docs/spec/runtime.md §13.4). */
import type { LlmClient, ModelProvider, ModelRef, ResolvedModelConfig } from '../model/types';

export class FixedModelProvider implements ModelProvider {
  constructor(
    private readonly config: ResolvedModelConfig,
    private readonly llmClient: LlmClient,
  ) {}

  resolve(ref: ModelRef): ResolvedModelConfig {
    switch (ref.type) {
      case 'named':
        if (this.names(ref.model)) return this.config;
        throw this.cannotResolve(ref.model);
      case 'backend_model':
        if (ref.backend === this.config.backend && this.names(ref.model)) return this.config;
        throw this.cannotResolve(ref.model);
      case 'resolved':
        if (ref.config.backend === this.config.backend && ref.config.model_id === this.config.model_id) {
          return this.config;
        }
        throw this.cannotResolve(ref.config.requested_model);
    }
  }

  /** Always the startup client, whatever config it is asked for. */
  client(_resolved: ResolvedModelConfig): LlmClient {
    return this.llmClient;
  }

  defaultModelRef(): ModelRef {
    return { type: 'backend_model', backend: this.config.backend, model: this.config.requested_model };
  }

  private names(model: string): boolean {
    return (
      model === this.config.requested_model ||
      model === this.config.selected_model ||
      model === this.config.model_id
    );
  }

  private cannotResolve(model: string): Error {
    return new Error(`App Server fixed model provider cannot resolve \`${model}\``);
  }
}
