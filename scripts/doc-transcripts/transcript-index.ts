/** `docs/transcripts/README.md`: the format, how the files were recorded, and one section per scenario. */
import { baseCliArgs, SCRIPT_FILE, SETTINGS_DOCUMENT } from './sandbox';
import type { Scenario } from './scenario';
import { CLIENT_TO_SERVER, type TranscriptLine, type WireMessage } from './transcript-format';

const HEADER = `# Protocol transcripts

Every \`*.jsonl\` file here is a real conversation with the built stdio server
(\`node dist/main.js app-server --listen stdio …\`), recorded by
[\`scripts/generate-doc-transcripts.ts\`](../../scripts/generate-doc-transcripts.ts). Do not edit them by
hand; regenerate them after a protocol change:

\`\`\`sh
npm run build
npm run docs:transcripts            # all scenarios
npm run docs:transcripts -- errors  # only the named ones
\`\`\`

A unit test (\`test/unit/docs/transcripts.spec.ts\`) validates every recorded message against the
committed JSON Schemas in \`schema/app-server/json/\`, so a transcript cannot silently disagree with the
protocol. Ids and timestamps differ on every run.

## Format

One JSON object per line, in the order the client wrote or read the lines:

| Line | Meaning |
|---|---|
| \`{"direction":"→","message":{…}}\` | a JSON-RPC message the client wrote to the server's stdin |
| \`{"direction":"→","raw":"…"}\` | a deliberately malformed client line, written exactly as given (error samples) |
| \`{"direction":"←","message":{…}}\` | a message the server wrote to stdout |

Client lines may carry a \`note\` saying why the client sent them. The \`message\` is the wire message
itself: strip the wrapper and you have the JSONL stream of \`protocol.md\` §14. Because the server works
asynchronously, a server line recorded after a client line may have been produced before the client
wrote it (for example turn traffic that was already on its way).

## How they were recorded

Each scenario starts a fresh server process in a fresh temp directory that holds the settings file,
the scripted model file, a small \`workspace/\` (\`README.md\`, \`src/index.ts\`, \`src/math.ts\`,
\`build/app.js\`) and the store. The common command line is

\`\`\`sh
VV_AGENT_SCRIPTED_MODEL_FILE=${SCRIPT_FILE} node dist/main.js ${baseCliArgs().join(' ')}
\`\`\`

plus the options named per scenario. \`settings.json\` (its endpoint is never contacted: the scripted
model file replaces the HTTP client, docs/spec/runtime.md §15.3):

\`\`\`json
${JSON.stringify(SETTINGS_DOCUMENT, null, 2)}
\`\`\`

The client closes stdin at the end of every scenario; the server then shuts down and exits with 0.
`;

function params(message: WireMessage): Record<string, unknown> {
  return (message.params ?? {}) as Record<string, unknown>;
}

/** What a server line is about, without ids or timestamps (so the outline is stable across runs). */
function describeServerMessage(message: WireMessage, answered: string | undefined): string {
  if (typeof message.method !== 'string') {
    const to = answered === undefined ? '' : ` to ${answered}`;
    if (!('error' in message)) return `result${to}`;
    const error = message.error as { code: number; message: string };
    return `error${to}: ${error.code} ${error.message}`;
  }
  const p = params(message);
  const payload = (p.payload ?? {}) as Record<string, unknown>;
  const detail: unknown[] = [];
  if (message.method.startsWith('item/')) {
    detail.push(p.type, payload.toolName, p.status, payload.errorCode ?? payload.decision);
    if (p.type === 'userMessage' && payload.steered === true) detail.push('steered');
  } else if (message.method === 'thread/status/changed') detail.push(p.status);
  else if (message.method === 'turn/completed') detail.push(p.status, p.completionReason, p.error);
  else if (message.method.startsWith('approval/')) detail.push(p.toolName, p.decision, p.reason);
  else if (message.method === 'error/warning') detail.push(p.code, p.message);
  const text = detail.filter((part) => typeof part === 'string' && part !== '').join(' ');
  return text === '' ? message.method : `${message.method} (${text})`;
}

/** The method and id of a client line, also of a malformed one when its JSON can be read. */
function requestOf(line: Extract<TranscriptLine, { direction: typeof CLIENT_TO_SERVER }>): WireMessage {
  if (!('raw' in line)) return line.message;
  try {
    const value: unknown = JSON.parse(line.raw);
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as WireMessage) : {};
  } catch {
    return {};
  }
}

function describeClientLine(
  line: Extract<TranscriptLine, { direction: typeof CLIENT_TO_SERVER }>,
  request: WireMessage,
): string {
  const what = typeof request.method === 'string' ? request.method : 'answer to approval/request';
  return 'raw' in line ? `malformed: ${line.note ?? what}` : what;
}

/** One short line per recorded message: the shape of the conversation at a glance. */
export function outline(lines: readonly TranscriptLine[]): string {
  const methodsById = new Map<string, string>();
  return lines
    .map((line) => {
      if (line.direction !== CLIENT_TO_SERVER) {
        return `← ${describeServerMessage(line.message, methodsById.get(JSON.stringify(line.message.id)))}`;
      }
      const request = requestOf(line);
      if (typeof request.method === 'string' && 'id' in request) {
        methodsById.set(JSON.stringify(request.id), request.method);
      }
      return `→ ${describeClientLine(line, request)}`;
    })
    .join('\n');
}

function section(scenario: Scenario, lines: readonly TranscriptLine[] | undefined): string {
  const args = scenario.extraArgs && scenario.extraArgs.length > 0 ? scenario.extraArgs.join(' ') : '(none)';
  const shape =
    lines === undefined
      ? ''
      : `\nOutline (one line per recorded message):\n\n\`\`\`text\n${outline(lines)}\n\`\`\`\n`;
  return `## ${scenario.title}

File: [\`${scenario.name}.jsonl\`](${scenario.name}.jsonl). Extra options: \`${args}\`.

${scenario.description}
${shape}
Scripted model replies (\`${SCRIPT_FILE}\`):

\`\`\`json
${JSON.stringify({ steps: scenario.modelSteps }, null, 2)}
\`\`\`
`;
}

/** The index; `recorded` holds each scenario's transcript by name, when it exists. */
export function renderTranscriptIndex(
  scenarios: readonly Scenario[],
  recorded: ReadonlyMap<string, readonly TranscriptLine[]>,
): string {
  const contents = scenarios
    .map((s) => `* [${s.title}](#${anchor(s.title)}) — \`${s.name}.jsonl\``)
    .join('\n');
  const sections = scenarios.map((s) => section(s, recorded.get(s.name)));
  return `${HEADER}\n## Contents\n\n${contents}\n\n${sections.join('\n')}`;
}

/** GitHub's heading anchor: lower case, punctuation dropped, spaces to dashes. */
function anchor(title: string): string {
  return title
    .toLowerCase()
    .replace(/[^a-z0-9 _-]/g, '')
    .replace(/ /g, '-');
}
