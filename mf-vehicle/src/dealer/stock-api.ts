/** The console API the stock screens read and write (`/api/console/sites/:site/stock…`), same origin, with the console's cookie. */
export const carStatuses = ['in_stock', 'coming_soon', 'sold'] as const;
export const carTypes = ['new', 'used', 'demo'] as const;

export type StockRow = {
  id: number;
  name: string;
  stocknum: string;
  vin: string;
  price: number;
  status: string;
  car_type: string;
  shown: boolean;
  location_name: string;
  photo: string | null;
  photos: number;
};
export type StockFilter = { q?: string; status?: string; type?: string; shown?: string };

/** The car's fields as the form edits them (the server's `CarEdit`). */
export type CarFields = {
  make: string;
  model: string;
  badge: string | null;
  series: string | null;
  year: number;
  km: number;
  price: number;
  before_price: number | null;
  subscription_price: number | null;
  car_type: string;
  status: string;
  stocknum: string;
  vin: string;
  tag: string | null;
  certified: boolean;
  preorder: boolean;
  show_on_dealer_website: boolean;
  location_id: number;
  simple_body: string;
  simple_drive: string;
  simple_fuel: string;
  simple_transmission: string;
  colour: string;
  seats: number;
  filtered_features: string[];
  description: string;
  custom_rank: number;
  photos: string[];
};
export type CarAnswer = {
  car: CarFields & { id: number; slug: string; name: string };
  page: string;
  locations: { id: number; name: string }[];
};

export class StockApiError extends Error {
  constructor(
    message: string,
    readonly fields: Record<string, string> = {},
  ) {
    super(message);
  }
}

/** A call to the console's API with its cookie: the JSON answer, or a StockApiError naming the fields it refused. */
export async function call<T>(url: string, init?: RequestInit & { contentType?: string }): Promise<T> {
  const res = await fetch(url, {
    credentials: 'same-origin',
    ...init,
    headers: { accept: 'application/json', ...(init?.body ? { 'content-type': init.contentType ?? 'application/json' } : {}) },
  });
  const body = (await res.json().catch(() => ({}))) as { message?: string; fields?: Record<string, string> };
  if (!res.ok) throw new StockApiError(body.message ?? `The console answered ${res.status}.`, body.fields ?? {});
  return body as T;
}

const query = (filter: StockFilter, cursor: string | null) => {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  if (cursor) params.set('cursor', cursor);
  return params.toString();
};

export const stockApi = (apiBase: string) => ({
  list: (filter: StockFilter, cursor: string | null) =>
    call<{ cars: StockRow[]; next_cursor: string | null; locale: string; locations: { id: number; name: string }[] }>(
      `${apiBase}/stock?${query(filter, cursor)}`,
    ),
  car: (id: number) => call<CarAnswer>(`${apiBase}/stock/${id}`),
  create: (fields: Partial<CarFields>) => call<CarAnswer>(`${apiBase}/stock`, { method: 'POST', body: JSON.stringify(fields) }),
  change: (id: number, fields: Partial<CarFields>) =>
    call<CarAnswer>(`${apiBase}/stock/${id}`, { method: 'PATCH', body: JSON.stringify(fields) }),
  addPhoto: (id: number, file: File) =>
    call<CarAnswer>(`${apiBase}/stock/${id}/photos`, { method: 'PUT', body: file, contentType: file.type || 'application/octet-stream' }),
});
export type StockApi = ReturnType<typeof stockApi>;

/** A photo's address at a small width, through the image endpoint. */
export const thumbnail = (photo: string) => `${photo}?w=160&q=75`;
