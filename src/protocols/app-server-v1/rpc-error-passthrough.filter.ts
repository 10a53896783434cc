/**
 * Nest's default RPC exception filter masks every non-RpcException as "Internal server error".
 * This filter hands the original error back to the dispatcher, which owns the mapping to JSON-RPC
 * errors (RpcError as is, anything else -32603 with its message).
 */
import { Catch, type RpcExceptionFilter } from '@nestjs/common';
import { throwError, type Observable } from 'rxjs';

@Catch()
export class RpcErrorPassthroughFilter implements RpcExceptionFilter<unknown> {
  catch(exception: unknown): Observable<never> {
    return throwError(() => exception);
  }
}
