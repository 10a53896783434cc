import { PostgresSchema1790000000000 } from './1790000000000-postgres-schema';
import { Instances1790000000100 } from './1790000000100-instances';
import { InstanceOwnerToken1790000000200 } from './1790000000200-instance-owner-token';
import { SandboxModes1790000000700 } from './1790000000700-sandbox-modes';

/** PostgreSQL's own migration history, in order; never `synchronize` (docs/spec/protocol.md §8.11). */
export const POSTGRES_MIGRATIONS = [
  PostgresSchema1790000000000,
  Instances1790000000100,
  InstanceOwnerToken1790000000200,
  SandboxModes1790000000700,
];
