import {
  formatHttpError,
  pathOfRoute,
  queryStringOf,
  type RouteAnswer,
  type RouteContract,
  type RouteInput,
  stripClientState,
  type UploadTarget,
} from '@dossier/core';

/** A failed call: the message is `status: server message`. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string | undefined;
  /** Field path -> message, for forms. */
  readonly fields: Record<string, string> | undefined;
  /** The server's own message, without the status prefix. */
  readonly serverMessage: string | undefined;

  constructor(status: number, statusText: string, body: unknown) {
    const parsed = errorBodyOf(body);
    super(formatHttpError(status, parsed.message, statusText));
    this.name = 'ApiError';
    this.status = status;
    this.code = parsed.code;
    this.fields = parsed.fields;
    this.serverMessage = parsed.message;
  }
}

function errorBodyOf(body: unknown): {
  message?: string | undefined;
  code?: string | undefined;
  fields?: Record<string, string> | undefined;
} {
  if (!body || typeof body !== 'object') return {};
  const { message, code, fields } = body as Record<string, unknown>;
  return {
    message: typeof message === 'string' ? message : undefined,
    code: typeof code === 'string' ? code : undefined,
    fields: fields && typeof fields === 'object' ? (fields as Record<string, string>) : undefined,
  };
}

/** A flat body as form fields; fields left undefined are left out. */
function formOf(body: unknown): Record<string, string> {
  const form: Record<string, string> = {};
  for (const [key, value] of Object.entries((body ?? {}) as Record<string, unknown>))
    if (value !== undefined && value !== null) form[key] = String(value);
  return form;
}

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface RequestOptions {
  /** A JSON body; client-only properties ($…, except $type) are left out. */
  json?: unknown;
  /** A form-urlencoded body. */
  form?: Record<string, string>;
  /** A file's bytes as the body, sent with the file's type (the recipient's page's uploads). */
  bytes?: Blob;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  /** The call outlives the page (a save on leaving it); the browser limits such bodies to 64 KB. */
  keepalive?: boolean;
}

export interface CallOptions extends Omit<RequestOptions, 'json' | 'form'> {
  /** Send the body form-urlencoded, as the page's plain HTML form would (sign-in). */
  asForm?: boolean;
}

export interface Api {
  /**
   * Calls a route by its contract (packages/core/src/contracts): the path filled from `params`,
   * `query` appended, `body` sent as JSON; answers the contract's answer type. The one way a page
   * calls the server; `request`/`get`/`post` remain for page paths whose answer is a view.
   */
  call<C extends RouteContract>(
    contract: C,
    input: RouteInput<C>,
    options?: CallOptions,
  ): Promise<RouteAnswer<C>>;
  /**
   * Calls a route whose answer is a file's bytes (`answer: z.unknown()`, such as GET /files/{key}):
   * answers them as a Blob; a refusal throws ApiError like any call.
   */
  download<C extends RouteContract>(
    contract: C,
    input: RouteInput<C>,
    options?: Pick<RequestOptions, 'signal'>,
  ): Promise<Blob>;
  /**
   * PUTs a file's bytes to where POST /files said (`UploadTarget`), with the headers it named.
   * The one call not to a route of ours by contract: the target is our signed upload route or an
   * object store's signed URL, authorised by its signature, so it is sent as it was answered.
   */
  upload(target: UploadTarget, file: Blob, options?: Pick<RequestOptions, 'signal'>): Promise<void>;
  request<T>(method: string, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  post<T>(path: string, json?: unknown, options?: RequestOptions): Promise<T>;
  postForm<T>(path: string, form: Record<string, string>, options?: RequestOptions): Promise<T>;
}

/** The change-password address the server named, coming back to the page shown (not the call made). */
function changePasswordAddress(named: string): string {
  const url = new URL(named, window.location.origin);
  url.searchParams.set('return-url', `${window.location.pathname}${window.location.search}`);
  return `${url.pathname}${url.search}`;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text().catch(() => '');
  if (text.length === 0) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The path and query of a call by its contract. */
function pathOfCall(contract: RouteContract, input: unknown): string {
  const { params, query } = input as { params?: Record<string, unknown>; query?: Record<string, unknown> };
  return pathOfRoute(contract.path, params) + queryStringOf(query);
}

/** Every call carries X-Requested-With and same-origin credentials; a non-OK answer throws ApiError. */
export function createApi(fetchImpl: FetchLike = (input, init) => fetch(input, init)): Api {
  async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = {
      'X-Requested-With': 'XMLHttpRequest',
      Accept: 'application/json',
      ...options.headers,
    };
    let body: string | Blob | undefined;
    if (options.bytes !== undefined) {
      headers['Content-Type'] = options.bytes.type || 'application/octet-stream';
      body = options.bytes;
    } else if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(stripClientState(options.json));
    } else if (options.form) {
      headers['Content-Type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(options.form).toString();
    }
    const response = await fetchImpl(path, {
      method,
      headers,
      ...(body !== undefined && { body }),
      credentials: 'same-origin',
      // A page path answers JSON or HTML by header: never keep the JSON in the HTTP cache, or the
      // browser's back button could show it in place of the page.
      cache: 'no-store',
      ...(options.signal !== undefined && { signal: options.signal }),
      ...(options.keepalive && { keepalive: true }),
    });
    const parsed = await readBody(response);
    if (!response.ok) {
      const error = new ApiError(response.status, response.statusText, parsed);
      // The session is open but its password must be changed first (an administrator asked for it
      // meanwhile): the change-password page is where the user goes, not the sign-in overlay.
      const changeAt = response.headers.get('location');
      if (error.status === 401 && error.code === 'passwordMustChange' && changeAt?.startsWith('/'))
        window.location.assign(changePasswordAddress(changeAt));
      throw error;
    }
    return parsed as T;
  }
  /** Sends a call whose answer is not JSON; a non-OK answer throws ApiError with its message. */
  async function send(url: string, init: RequestInit): Promise<Response> {
    const response = await fetchImpl(url, { credentials: 'same-origin', ...init });
    if (!response.ok) throw new ApiError(response.status, response.statusText, await readBody(response));
    return response;
  }
  return {
    call: (contract, input, { asForm, ...options } = {}) => {
      const { body } = input as { body?: unknown };
      if (asForm)
        return request(contract.method, pathOfCall(contract, input), { ...options, form: formOf(body) });
      if (options.bytes) return request(contract.method, pathOfCall(contract, input), options);
      return request(contract.method, pathOfCall(contract, input), {
        ...options,
        ...(body !== undefined || contract.method !== 'GET' ? { json: body ?? {} } : {}),
      });
    },
    download: async (contract, input, options = {}) => {
      const response = await send(pathOfCall(contract, input), {
        method: contract.method,
        headers: { 'X-Requested-With': 'XMLHttpRequest' },
        cache: 'no-store',
        ...(options.signal !== undefined && { signal: options.signal }),
      });
      return response.blob();
    },
    upload: async (target, file, options = {}) => {
      const response = await send(target.uploadUrl, {
        method: 'PUT',
        headers: target.headers,
        body: file,
        ...(options.signal !== undefined && { signal: options.signal }),
      });
      // Both targets answer 200 for bytes taken; anything else did not store the file.
      if (response.status !== 200) throw new ApiError(response.status, response.statusText, undefined);
    },
    request,
    get: (path, options) => request('GET', path, options),
    post: (path, json, options) => request('POST', path, { ...options, json: json ?? {} }),
    postForm: (path, form, options) => request('POST', path, { ...options, form }),
  };
}

export const api = createApi();
