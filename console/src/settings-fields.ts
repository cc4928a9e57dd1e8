import type { ApiError } from './console-api';

export type Hours = { weekday: number; status: 'Open' | 'Closed'; formated_hours: string; open: string | null; close: string | null };
export type Address = { street: string; city: string; state: string; postcode: string };
export type LocationSettings = {
  id: number;
  name: string;
  phone: string;
  email: string | null;
  address: Address;
  opening_hours: Hours[];
};
export type MenuLink = { label: string; to: string | true; dynamic?: 'stock' | 'brands'; children?: MenuLink[] };
export type Menus = { header: MenuLink[]; footer: MenuLink[] };

/** The error under a field and the attributes that tie the field to it, for the field the server named by its path. */
export function fieldHelpers(error: ApiError | null) {
  const id = (path: string) => `${path.replace(/\W/g, '-')}-error`;
  return {
    message: (path: string) => error?.fields[path] ?? null,
    errorId: id,
    invalid: (path: string) => (error?.fields[path] ? { 'aria-invalid': true as const, 'aria-describedby': id(path) } : {}),
  };
}
export type FieldHelpers = ReturnType<typeof fieldHelpers>;
