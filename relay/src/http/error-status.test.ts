import { describe, expect, it } from 'vitest';
import { BrowserUnavailable, NavigationFailed } from '../browser/errors';
import {
  AtCapacity,
  BadRequest,
  DomainError,
  ERROR_CODES,
  type ErrorCode,
  SessionBusy,
  SessionGone,
  TooManyRequests,
  Unauthorized,
  ValidationFailed,
} from '../errors';
import { ExtensionCommandError } from '../gateway/errors';
import { ScreenshotNotStored } from '../store/image-store';
import { httpAnswerOf, STATUS_NAMES } from './error-status';

const codes = Object.keys(ERROR_CODES) as ErrorCode[];

describe('httpAnswerOf', () => {
  it.each(codes)('maps %s to a status with a reason phrase: 4xx when it blames the request, else 5xx', (code) => {
    const error = new DomainError(code, 'something');
    const { status } = httpAnswerOf(error);
    expect(STATUS_NAMES[status]).toBeDefined();
    if (error.blamesRequest) expect(status).toBeGreaterThanOrEqual(400);
    if (error.blamesRequest) expect(status).toBeLessThan(500);
    else expect(status).toBeGreaterThanOrEqual(500);
  });

  it('keeps the statuses and headers the contract pins', () => {
    const answer = (error: DomainError) => httpAnswerOf(error);
    expect(answer(new BadRequest('x'))).toEqual({ status: 400, headers: {} });
    expect(answer(new Unauthorized('x'))).toEqual({ status: 401, headers: { 'WWW-Authenticate': 'Bearer' } });
    expect(answer(new SessionGone('ses_1', 'closed'))).toEqual({ status: 404, headers: {} });
    expect(answer(new SessionBusy('ses_1', 30_000))).toEqual({ status: 409, headers: {} });
    expect(answer(new ValidationFailed([]))).toEqual({ status: 422, headers: {} });
    expect(answer(new TooManyRequests(1500, (s) => `${s}`))).toEqual({ status: 429, headers: { 'Retry-After': '2' } });
    expect(answer(new AtCapacity(10, 7))).toEqual({ status: 503, headers: { 'Retry-After': '7' } });
    expect(answer(new BrowserUnavailable('x'))).toEqual({ status: 503, headers: { 'Retry-After': '5' } });
    expect(answer(new ScreenshotNotStored('x', 'y'))).toEqual({ status: 503, headers: { 'Retry-After': '60' } });
    expect(answer(new NavigationFailed('https://a.test/', 'x'))).toEqual({ status: 400, headers: {} });
  });

  it("answers the extension's codes as the extension contract says", () => {
    const status = (code: ConstructorParameters<typeof ExtensionCommandError>[0]['code']) =>
      httpAnswerOf(new ExtensionCommandError({ code, message: 'x' }));
    expect(status('restricted_page')).toEqual({ status: 400, headers: {} });
    expect(status('api_disabled')).toEqual({ status: 400, headers: {} });
    expect(status('navigation_failed')).toEqual({ status: 400, headers: {} });
    expect(status('stale_element')).toEqual({ status: 400, headers: {} });
    expect(status('tab_closed')).toEqual({ status: 404, headers: {} });
    expect(status('timeout')).toEqual({ status: 503, headers: { 'Retry-After': '2' } });
    expect(status('disconnected')).toEqual({ status: 503, headers: { 'Retry-After': '2' } });
    expect(status('bad_request')).toEqual({ status: 500, headers: {} });
    expect(status('internal')).toEqual({ status: 500, headers: {} });
  });
});
