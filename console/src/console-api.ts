/** The console's own calls: sign-in and who the user is (`/api/console/auth/*`, `/api/console/me`). */
export type ConsoleSite = { id: number; slug: string; name: string; group: string | null; actions: string[] };
export type Me = { user: { id: number; email: string; name: string | null; roles: { role: string }[] }; sites: ConsoleSite[] };

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A call to the console's API with the user's cookie: its JSON, or an ApiError with the message and the fields it names. */
async function call<T>(url: string, init?: RequestInit): Promise<T> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    ...init,
    headers: {
      accept: 'application/json',
      ...(init?.body ? { 'content-type': 'application/json' } : {}),
      ...(init?.headers as Record<string, string> | undefined),
    },
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string; fields?: Record<string, string> };
  if (!res.ok) throw new ApiError(body.message ?? `The console answered ${res.status}.`, res.status, body.fields ?? {});
  return body as T;
}

/** The same for the screens: `GET` without a body, any method with one (sent as JSON). */
export const consoleCall = <T>(method: string, url: string, body?: object) =>
  call<T>(url, { method, ...(body ? { body: JSON.stringify(body) } : {}) });

/** A file sent as the body of a `PUT`, with its own content type (a picture to upload). */
export const consoleUpload = <T>(url: string, file: File) =>
  call<T>(url, { method: 'PUT', body: file, headers: { 'content-type': file.type || 'application/octet-stream' } });

export const consoleApi = {
  me: () => call<Me>('/api/console/me'),
  askCode: (email: string) => call<{ message: string }>('/api/console/auth/code', { method: 'POST', body: JSON.stringify({ email }) }),
  verify: (body: { email: string; code: string } | { token: string }) =>
    call<Me>('/api/console/auth/verify', { method: 'POST', body: JSON.stringify(body) }),
  signOut: () => fetch('/api/console/auth/sign-out', { method: 'POST', credentials: 'same-origin' }),
  remotes: (site: string) => call<{ remotes: { name: string; entry: string }[] }>(`/api/console/sites/${encodeURIComponent(site)}/remotes`),
};
