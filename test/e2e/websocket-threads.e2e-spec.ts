/**
 * The threads protocol suite (threads.e2e-spec.ts) over one WebSocket per session instead of stdio
 * (docs/spec/websocket.md §8: the protocol suites also run over WebSocket). Tests about stdio itself are
 * skipped here (`stdioOnlyIt`).
 */
import { useTransport } from '../helpers/app-server-session';

useTransport('ws');
// eslint-disable-next-line @typescript-eslint/no-require-imports
require('./threads.e2e-spec');
