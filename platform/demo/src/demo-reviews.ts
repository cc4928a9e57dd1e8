/**
 * The demo sites' people: the staff their team pages show and the Google reviews their home pages
 * quote (issue 24). Names are plain ASCII so they also make valid e-mail addresses.
 */
import type { StaffMember } from '@dealer/contracts/content';
import type { Location } from '@dealer/contracts/location';
import type { SiteConfig } from '@dealer/contracts/site';
import { t } from '@dealer/rules/locale';
import type { Rng } from './prng';

const firstNames = (
  'Olivia Jack Charlotte Noah Amelia William Isla Oliver Mia Thomas Grace Lucas Chloe James Sophie Ethan Zoe Liam ' +
  'Emily Daniel Priya Arjun Mei Wei Hannah Samuel Aisha Omar Ruby Mason Ella Benjamin Sienna Harrison Leah Marco ' +
  'Elena Nikos Sofia Tom Kate Ben Jess Sam Matt Sarah Luke Anna Josh Megan Ravi Linh Minh Fatima Carlos Maria ' +
  'Diego Tyler Ashley'
).split(' ');
const nzFirstNames = 'Aroha Tama Wiremu Ngaire Manaia Kiri Rangi Anahera'.split(' ');
const lastNames = (
  'Smith Jones Williams Brown Wilson Taylor Nguyen Johnson Martin White Anderson Walker Thompson Harris Lee Ryan ' +
  'Robinson Kelly King Campbell Clarke Wright Mitchell Young Patel Singh Chen Wang Tran Murphy Hughes Edwards ' +
  'Green Hall Wood Jackson Lewis Turner Hill Scott Cooper Ward Morris Rossi Papadopoulos Garcia Rodriguez Kim ' +
  'Park Fraser Stewart Baker Bennett Reid'
).split(' ');
const nzLastNames = 'Ngata Parata Tipene Walker Henare Horomona'.split(' ');

export type Person = { first: string; last: string };

export function personFor(site: Pick<SiteConfig, 'locale'>, rng: Rng): Person {
  const nz = site.locale === 'en-NZ' && rng.chance(0.25);
  return { first: rng.pick(nz ? nzFirstNames : firstNames), last: rng.pick(nz ? nzLastNames : lastNames) };
}

const roles: Record<Location['location_type'], { au: readonly string[]; us: readonly string[] }> = {
  sales: {
    au: ['Dealer Principal', 'Sales Manager', 'Sales Consultant', 'Finance Manager', 'Sales Consultant', 'Customer Delivery Coordinator'],
    us: ['General Manager', 'Sales Manager', 'Sales Consultant', 'Finance Manager', 'Sales Consultant', 'Internet Sales Specialist'],
  },
  service: {
    au: ['Service Manager', 'Service Advisor', 'Workshop Foreman', 'Service Advisor', 'Senior Technician', 'Apprentice Technician'],
    us: ['Service Director', 'Service Advisor', 'Shop Foreman', 'Service Advisor', 'Master Technician', 'Lube Technician'],
  },
  parts: {
    au: ['Parts Manager', 'Parts Interpreter', 'Parts Interpreter', 'Accessories Specialist', 'Warehouse Coordinator', 'Parts Interpreter'],
    us: ['Parts Manager', 'Parts Specialist', 'Parts Specialist', 'Accessories Specialist', 'Warehouse Coordinator', 'Parts Specialist'],
  },
};

/** 3 to 6 people for each location shown on the site, led by its manager, with work e-mails at the site's domain. */
export function demoStaff(site: Pick<SiteConfig, 'locale' | 'locations'>, rng: Rng): Map<number, StaffMember[]> {
  const staff = new Map<number, StaffMember[]>();
  const taken = new Set<string>();
  for (const location of site.locations.filter((entry) => entry.visible)) {
    const roleList = roles[location.location_type][site.locale === 'en-US' ? 'us' : 'au'];
    const domain = location.contact_detail.email?.split('@')[1];
    const people = roleList.slice(0, rng.int(3, 6)).map((role): StaffMember => {
      let person = personFor(site, rng);
      while (taken.has(`${person.first} ${person.last}`)) person = personFor(site, rng);
      taken.add(`${person.first} ${person.last}`);
      return {
        name: `${person.first} ${person.last}`,
        role,
        location_id: location.id,
        phone: location.contact_detail.phone,
        ...(domain ? { email: `${person.first}.${person.last}@${domain}`.toLowerCase() } : {}),
      };
    });
    staff.set(location.id, people);
  }
  return staff;
}

export type DemoReview = {
  location_id: number;
  source: 'google';
  external_id: string;
  author: string;
  rating: number;
  text: string;
  /** Ms since 1970. */
  reviewed_at: number;
};

const praise: Record<Location['location_type'], readonly string[]> = {
  sales: [
    '{staff} made buying our new {thing} easy. No pressure, clear pricing and the car was spotless on pick-up.',
    'Great experience from start to finish. {staff} found us exactly what we were after and sorted the finance the same day.',
    'Traded in my old car and drove away the same afternoon. Fair price on the trade and honest advice throughout.',
    'Friendly team and a good range on the yard. {staff} answered every question and followed up after the sale.',
    'Second {thing} we have bought here and it will not be the last. Highly recommend {site}.',
    'Very professional. The paperwork was ready when we arrived and the handover was thorough.',
    'Drove an hour to get here and it was worth it. Honest people and a great deal.',
  ],
  service: [
    'Booked online, dropped the car off at 8 and it was ready by lunch. {staff} explained everything that was done.',
    'Reliable service every time. They call before doing any extra work and the price is always what they quoted.',
    '{staff} on the service desk is fantastic. Courtesy car ready to go and the car came back washed.',
    'Found a warranty issue another workshop missed and fixed it at no cost. Thank you!',
    'Quick, friendly and fairly priced. Will keep servicing here.',
  ],
  parts: [
    '{staff} tracked down a part nobody else could find and had it in two days.',
    'Knowledgeable parts team, good prices on genuine accessories and they fitted the tow bar while I waited.',
    'Ordered floor mats and a roof rack, both in stock, in and out in ten minutes.',
    'Helpful and patient. They checked my VIN to make sure the part was right.',
  ],
};

const middling = [
  'Good car and a fair price, but the handover took longer than promised.',
  'Friendly staff, though it was hard to get someone on the phone.',
  'The work was done well but the car was ready a day later than quoted.',
];

const complaints = [
  'Waited a long time to be served on a Saturday and nobody followed up on my enquiry.',
  'Was told the car would be ready on Friday and it was not. Had to call three times.',
  'Disappointed with the communication. The end result was fine but it took too long.',
];

/** 8 to 20 Google reviews of each location shown, mostly 4 and 5 stars with a few of 1 to 3, the newest first. */
export function demoReviews(
  site: Pick<SiteConfig, 'name' | 'locale' | 'locations' | 'vehicle_category'>,
  staff: Map<number, StaffMember[]>,
  now: number,
  rng: Rng,
): DemoReview[] {
  const day = 86_400_000;
  const thing = { car: 'car', subscription: 'car', rental: 'car', truck: 'truck', motorcycle: 'bike', camper: 'van' }[
    site.vehicle_category
  ];
  return site.locations
    .filter((location) => location.visible)
    .flatMap((location) => {
      const people = staff.get(location.id) ?? [];
      // A location's own average (its Google summary) tilts its stars.
      const tilt = Math.max(0, (location.reviews.average_rating || 4.5) - 3.9) * 60;
      const ages = Array.from({ length: rng.int(8, 20) }, () => rng.int(day / 4, 3 * 365 * day)).sort((a, b) => a - b);
      return ages.map((age, index): DemoReview => {
        const rating = rng.weighted([
          [5, 45 + tilt],
          [4, 30],
          [3, 6],
          [2, 3],
          [1, 4],
        ] as const);
        const template = rating >= 4 ? rng.pick(praise[location.location_type]) : rating === 3 ? rng.pick(middling) : rng.pick(complaints);
        const person = personFor(site, rng);
        const text = template
          .replace('{staff}', people.length > 0 ? rng.pick(people).name.split(' ')[0]! : 'The team')
          .replace('{thing}', thing)
          .replace('{site}', site.name);
        return {
          location_id: location.id,
          source: 'google',
          external_id: `demo-${location.id}-${String(index + 1).padStart(3, '0')}`,
          author: `${person.first} ${person.last[0]}.`,
          rating,
          text: t(site.locale, text),
          reviewed_at: now - age,
        };
      });
    });
}
