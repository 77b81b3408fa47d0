// LINE's error answers as api.line.me writes them: an HTTP status and `{ message, details?: [{ message, property }] }`
// (developers.line.biz reference, "Error responses"). A route throws LineApiError; a switched failure (failNext) is a
// FailureResponse written as it is. Every text here is the platform's own, so an adapter can match on it.

export interface ErrorDetail {
  message: string;
  property?: string;
}

export interface LineErrorBody {
  message: string;
  details?: ErrorDetail[];
  sentMessages?: { id: string; quoteToken?: string }[];
}

export interface FailureResponse {
  status: number;
  body?: unknown;
  headers?: Record<string, string>;
}

export class LineApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: LineErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(body.message);
  }
}

/** 400 "The request body has N error(s)" with one detail per offending property. */
export function requestBodyErrors(details: ErrorDetail[]): LineApiError {
  return new LineApiError(400, { message: `The request body has ${details.length} error(s)`, details });
}

export const lineErrors = {
  /** No Authorization header at all. */
  authorizationRequired: () =>
    new LineApiError(401, { message: "Authorization header required. Must follow the scheme, 'Authorization: Bearer <ACCESS TOKEN>'" }),
  /** A Bearer token the channel did not issue. */
  authenticationFailed: () => new LineApiError(401, { message: 'Authentication failed. Confirm that the access token in the authorization header is valid.' }),
  /** Unknown, used, or expired reply token. */
  invalidReplyToken: () => new LineApiError(400, { message: 'Invalid reply token' }),
  invalidDestination: () => new LineApiError(400, { message: "The property, 'to', in the request body is invalid" }),
  notFound: () => new LineApiError(404, { message: 'Not found' }),
  /** The body was not JSON (the fake's wording; LINE's exact text for this case is not documented). */
  unparsableBody: () => new LineApiError(400, { message: 'The request body could not be parsed as JSON' }),
  monthlyLimit: () => new LineApiError(429, { message: 'You have reached your monthly limit.' }),
  /** 409 for a retry key LINE already accepted: the accepted request's id and, for a push, its sentMessages. */
  retryKeyAccepted: (acceptedRequestId: string, sentMessages?: LineErrorBody['sentMessages']) =>
    new LineApiError(
      409,
      { message: 'The retry key is already accepted', ...(sentMessages ? { sentMessages } : {}) },
      { 'x-line-accepted-request-id': acceptedRequestId },
    ),
};

/** For failNext: the per-endpoint rate limit (2,000 requests/s on most endpoints). No Retry-After: LINE sends none. */
export function rateLimited(): FailureResponse {
  return { status: 429, body: { message: 'The API rate limit has been exceeded. Try again later.' } };
}

/** For failNext: the monthly quota, as a switch (the fake also sends it by itself once `quota` is spent). */
export function monthlyLimitReached(): FailureResponse {
  return { status: 429, body: lineErrors.monthlyLimit().body };
}

/** For failNext: a LINE-side failure. */
export function internalServerError(): FailureResponse {
  return { status: 500, body: { message: 'An error occurred in the internal server.' } };
}
