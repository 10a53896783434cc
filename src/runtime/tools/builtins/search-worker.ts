/** Worker-thread entry of `search_files`: runs one {@link SearchJob} and posts its result. */
import { parentPort, workerData } from 'node:worker_threads';

import { runSearchJob, type SearchJob } from './search-job';

const { job } = workerData as { job: SearchJob };
parentPort?.postMessage(runSearchJob(job));
