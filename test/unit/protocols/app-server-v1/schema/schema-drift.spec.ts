/**
 * Drift rule (docs/spec/protocol.md §11.1): the committed files under schema/app-server equal what the single
 * source generates now — same file names, same bytes. Fix a failure with `npm run schema:write`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  COMMITTED_SCHEMA_DIR,
  committedSchemaFiles,
  readSchemaDirectory,
} from '../../../../../src/protocols/app-server-v1/schema/committed-schema-files';
import { SCHEMA_NAMES } from '../../../../../src/protocols/app-server-v1/schema/schema-documents';
import { generateSchemaFiles } from '../../../../../src/protocols/app-server-v1/schema/schema-files';

/** §11.2, verbatim. */
const SPEC_NAMES = [
  'AppItem',
  'AppModelInfo',
  'AppThread',
  'AppTokenUsage',
  'AppTurn',
  'ApprovalDecision',
  'ApprovalRequestParams',
  'ApprovalResolveParams',
  'ApprovalResponse',
  'ClientRequest',
  'InitializeParams',
  'InitializeResponse',
  'JsonRpcMessage',
  'McpServerListResponse',
  'ModelListResponse',
  'SchemaExportResponse',
  'ServerNotification',
  'ServerRequest',
  'ThreadArchiveResponse',
  'ThreadListResponse',
  // docs/spec/history.md §1, §2, §3
  'ThreadCompactResponse',
  'ThreadForkResponse',
  'ThreadMetadataUpdateResponse',
  'ThreadReadResponse',
  'ThreadResumeResponse',
  'ThreadStartResponse',
  'ThreadUnsubscribeResponse',
  'TurnControlResponse',
  'TurnInterruptResponse',
  'TurnStartResponse',
];

describe('committed schema files', () => {
  const generated = generateSchemaFiles();
  const committed = readSchemaDirectory(COMMITTED_SCHEMA_DIR);

  it('publishes exactly the 26 names of §11.2 plus the history.md results and docs/spec/mcp.md §5 (no TurnStartParams, no turn/resume types)', () => {
    expect([...SCHEMA_NAMES].sort()).toEqual([...SPEC_NAMES].sort());
    expect(SCHEMA_NAMES).toHaveLength(30);
  });

  it('has exactly the generated JSON file names', () => {
    expect(readdirSync(join(COMMITTED_SCHEMA_DIR, 'json')).sort()).toEqual(
      SPEC_NAMES.map((name) => `${name}.json`).sort(),
    );
  });

  it('has exactly the generated TypeScript file names', () => {
    expect(readdirSync(join(COMMITTED_SCHEMA_DIR, 'typescript')).sort()).toEqual(
      SPEC_NAMES.map((name) => `${name}.ts`).sort(),
    );
  });

  it.each(SPEC_NAMES)('%s.json is byte-identical to the generated schema', (name) => {
    expect(committed.jsonSchema[name]).toBe(generated.jsonSchema[name]);
  });

  it.each(SPEC_NAMES)('%s.ts is byte-identical to the generated declarations', (name) => {
    expect(committed.typescript[`${name}.ts`]).toBe(generated.typescript[`${name}.ts`]);
  });

  it('generates deterministically', () => {
    expect(generateSchemaFiles()).toEqual(generated);
  });

  it('is what the running server serves', () => {
    expect(committedSchemaFiles()).toEqual(committed);
  });
});
