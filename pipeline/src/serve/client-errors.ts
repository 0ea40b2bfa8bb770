// Requests Node's HTTP parser refuses before the app sees them (issue 37: a request line of 16 KB or more got a bare
// 431 with no body). Answered here with the one error body, as Node's own handler would by status: headers over
// `maxHeaderSize` (16 KB, request line included) 431, a request that took too long 408, anything unparsable 400.
// Nothing is logged: a malformed request is the client's, not the server's.
import http from 'node:http';
import type { Socket } from 'node:net';
import { errorEnvelope, type ErrorBody } from '../contract/errors.ts';

const REASON: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

/** The error body for a parser error code (llhttp's `HPE_…`, Node's `ERR_HTTP_REQUEST_TIMEOUT`). */
export function clientErrorBody(code: string | undefined, maxHeaderSize: number): ErrorBody {
  if (code === 'HPE_HEADER_OVERFLOW')
    return {
      status: 431,
      code: 'headers_too_large',
      message: `The request line and headers exceed ${maxHeaderSize.toLocaleString('en-US')} bytes. Send a shorter URL (fewer or shorter query parameters) or fewer headers.`,
    };
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return { status: 408, code: 'malformed_request', message: 'The request was not received in time.' };
  return { status: 400, code: 'malformed_request', message: 'The request is not valid HTTP/1.1.' };
}

/** The raw HTTP/1.1 answer: the request was never parsed, so the socket is closed after it. */
export function clientErrorResponse(body: ErrorBody): string {
  const json = JSON.stringify(errorEnvelope(body));
  return [
    `HTTP/1.1 ${body.status} ${REASON[body.status]}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(json)}`,
    'Cache-Control: no-store',
    'Access-Control-Allow-Origin: *',
    'Connection: close',
    '',
    json,
  ].join('\r\n');
}

/** Replaces Node's default clientError answer on `server` (a reset connection, or one already answered, is closed). */
export function answerClientErrors(server: http.Server): void {
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Socket) => {
    // as Node's own handler: no answer on a reset socket, nor after an answer to this request began
    const answering = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent;
    if (err.code === 'ECONNRESET' || !socket.writable || answering) {
      socket.destroy();
      return;
    }
    socket.end(clientErrorResponse(clientErrorBody(err.code, http.maxHeaderSize)));
  });
}
