/** A JSON-RPC request id (docs/spec/protocol.md §1.3): a string or an integer, echoed verbatim. */
export type RequestId = string | number;
