import type { ColumnType, Generated } from 'kysely';

/** JSON is kept as text in both engines so one set of queries serves SQLite and PostgreSQL. */
export interface SitesTable {
  id: number;
  slug: string;
  domain_name: string | null;
  config: string;
  updated_at: number;
}

export interface SiteRemotesTable {
  site_id: number;
  remote: string;
  enabled: number;
  version: string | null;
  updated_at: number;
}

export interface LocationsTable {
  id: number;
  site_id: number;
  dealership_id: number;
  slug: string;
  location_type: string;
  data: string;
}

export interface CarsTable {
  id: number;
  site_id: number;
  slug: string;
  dealership_id: number;
  location_id: number;
  status: string;
  car_type: string;
  make: string;
  model: string;
  price: number;
  show_on_dealer_website: number;
  sold_date_timestamp: number | null;
  updated_at: number;
  data: string;
}

export interface LeadsTable {
  id: Generated<number>;
  site_id: number;
  category: string;
  lead_status: string;
  idempotency_key: string | null;
  payload: string;
  created_at: number;
  updated_at: number;
}

export interface EventsTable {
  id: Generated<number>;
  site_id: number | null;
  category: string;
  url: string | null;
  error_message: string | null;
  payload: string;
  created_at: ColumnType<number, number, never>;
}

export interface PlatformDatabase {
  sites: SitesTable;
  site_remotes: SiteRemotesTable;
  locations: LocationsTable;
  cars: CarsTable;
  leads: LeadsTable;
  events: EventsTable;
}
