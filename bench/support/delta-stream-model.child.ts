/**
 * Child-process entry of DeltaStreamModel: the model streams from its own process so its writes do
 * not compete with the bench client's reads for one event loop. Talks to the parent over IPC:
 * `{type:'listening', port}` once, then `{type:'streamed', tag, writeTimesUs}` per timed response.
 */
import { DeltaStreamModel } from './delta-stream-model';

void DeltaStreamModel.start((report) => process.send?.({ type: 'streamed', ...report })).then((model) => {
  process.send?.({ type: 'listening', port: model.port });
  process.on('disconnect', () => void model.close().then(() => process.exit(0)));
});
