export {
  abortError,
  exchange,
  type Exchange,
  type ExchangeOptions,
  type HttpBody,
  type HttpHeaders,
  type HttpRequestBody,
  type HttpResponse,
} from './http-exchange.js';
