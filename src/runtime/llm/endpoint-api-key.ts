/**
 * Where an endpoint's key comes from: `api_key_env: "NAME"` (the whole key from one variable) or
 * `${NAME}` references inside `api_key`, so keys stay out of settings files. Read when a model is
 * resolved, so only the endpoints a server actually uses need their variables set.
 */
import type { LlmEndpointSettings } from './llm-settings';

const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

function missing(endpoint: LlmEndpointSettings, name: string): Error {
  return new Error(`invalid LLM settings: endpoint ${endpoint.id}: environment variable ${name} is not set`);
}

/** Throws `invalid LLM settings: endpoint <id>: environment variable <NAME> is not set`. */
export function endpointApiKey(endpoint: LlmEndpointSettings, env: NodeJS.ProcessEnv): string {
  if (endpoint.api_key_env !== null) {
    const value = env[endpoint.api_key_env];
    if (value === undefined || value === '') throw missing(endpoint, endpoint.api_key_env);
    return value;
  }
  return endpoint.api_key.replace(REFERENCE, (_reference, name: string) => {
    const value = env[name];
    if (value === undefined) throw missing(endpoint, name);
    return value;
  });
}
