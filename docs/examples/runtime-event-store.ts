/** runtime-guide.md "Persisting run events": append every event to a JSONL file and replay it. */
import {
  Agent,
  EventStoreError,
  JsonlRunEventStore,
  Runner,
  ScriptedModelProvider,
  finish,
} from 'vv-agent-app-server';

// #region event-store
export async function runAndReplay(workspace: string, eventFile: string): Promise<string[]> {
  const store = new JsonlRunEventStore(eventFile); // one append-only file for any number of runs
  const runner = new Runner({
    modelProvider: new ScriptedModelProvider({ steps: [finish('Stored.')] }),
    workspace,
  });
  const agent = Agent.create({ name: 'archivist', instructions: 'Finish at once.' });
  const result = await runner.run(agent, 'Store this run', { eventStore: store });

  const replayed: string[] = [];
  for await (const entry of store.replay({ runId: result.runId })) {
    // A corrupt line ends the replay with one error naming the line.
    if (entry instanceof EventStoreError) throw entry;
    replayed.push(entry.type);
  }
  return replayed;
}
// #endregion event-store
