// Pages as the platform resolves them (shared/contracts content.ts), for the shell's tests only.
import type { CarCard, ResolvedBlock, ResolvedPage } from '@dealer/contracts/content';

export const picture = (name: string) => ({ src: `/img/site/${name.padEnd(32, '0')}.png`, alt: `A picture of ${name}` });

/** 26 November 2026, 09:30 UTC. */
export const novemberThe26th = Date.UTC(2026, 10, 26, 9, 30);

export const hiLux: CarCard = {
  id: 501,
  slug: '2024-toyota-hilux-sr5-abc123',
  name: '2024 Toyota HiLux SR5',
  year: 2024,
  km: 12345,
  price: 52990,
  before_price: 55990,
  car_type: 'used',
  primary_image_url: '/img/vehicle/car/ute/white/1.jpg',
  location_name: 'Metro Toyota Parramatta',
};

/** One block of every type, in the order a dealer might put them. */
export const everyBlock: ResolvedBlock[] = [
  {
    type: 'hero',
    id: 'hero',
    headline: 'Drive away today',
    text: 'Toyotas for every road.',
    image: picture('aa'),
    cta: { label: 'See our stock', to: '/cars' },
  },
  {
    type: 'rich_text',
    id: 'intro',
    html: '<p>We have sold cars in <strong>Parramatta</strong> since 1962. <a href="/about">Read our story</a>.</p>',
  },
  { type: 'image', id: 'showroom', image: picture('bb'), caption: 'Our showroom' },
  {
    type: 'cta',
    id: 'service',
    headline: 'Time for a service?',
    text: 'Book online in a minute.',
    button: { label: 'Book a service', to: '/service' },
  },
  {
    type: 'faq',
    id: 'faq',
    items: [
      { question: 'Do you take trade-ins?', answer_html: '<p>Yes, any make or model.</p>' },
      { question: 'Can I get finance?', answer_html: '<p>Ask us about <em>finance</em>.</p>' },
    ],
  },
  { type: 'locations', id: 'where', location_ids: [102], show_hours: false },
  {
    type: 'staff_list',
    id: 'team',
    group_by_location: true,
    people: [
      { name: 'Sam Lee', role: 'Sales Manager', location_id: 101, phone: '0400 000 001', email: 'sam@metrotoyota.example.com.au' },
      { name: 'Alex Chen', role: 'Service Advisor', location_id: 102, photo: picture('cc') },
      { name: 'Jo Park', role: 'Receptionist' },
    ],
  },
  {
    type: 'offers_list',
    id: 'offers',
    limit: 6,
    offers: [{ slug: 'eofy-sale', title: 'EOFY Sale', summary: 'Big savings.', image: picture('dd'), expires_at: novemberThe26th }],
  },
  {
    type: 'jobs_list',
    id: 'jobs',
    jobs: [
      {
        slug: 'sales-consultant',
        title: 'Sales Consultant',
        employment_type: 'Full time',
        location_name: 'Metro Toyota Parramatta',
        summary: 'Join our sales team.',
        body_html: '<ul><li>Drivers licence</li><li>A smile</li></ul>',
        closes_at: null,
      },
    ],
  },
  {
    type: 'posts_list',
    id: 'news',
    limit: 3,
    section: 'blog',
    posts: [
      { slug: 'new-hilux-arrives', title: 'The new HiLux arrives', summary: 'It is here.', image: null, published_at: novemberThe26th },
    ],
  },
  { type: 'featured_stock', id: 'stock', limit: 8, title: 'On the lot this week', cars: [hiLux], detail_path: '/cars' },
  {
    type: 'reviews',
    id: 'reviews',
    reviews: [
      {
        author: 'Pat M.',
        rating: 5,
        text: 'Great service from start to finish.',
        reviewed_at: novemberThe26th,
        location_name: 'Metro Toyota Parramatta',
      },
    ],
    locations: [{ name: 'Metro Toyota Parramatta', rating: 4.6, count: 212 }],
  },
  { type: 'lead_form', id: 'apply', form: 'careers', title: 'Apply now' },
];

export const aboutPage: ResolvedPage = { kind: 'page', path: '/about', title: 'About Metro Toyota', blocks: everyBlock };

export const postPage: ResolvedPage = {
  kind: 'post',
  path: '/blog/new-hilux-arrives',
  title: 'The new HiLux arrives',
  blocks: [{ type: 'rich_text', id: 'body', html: '<p>The new HiLux is in the showroom.</p>' }],
  post: { published_at: novemberThe26th, updated_at: novemberThe26th, author: 'Sam Lee', image: picture('ee') },
};

export const offerPage: ResolvedPage = {
  kind: 'offer',
  path: '/special-offers/eofy-sale',
  title: 'EOFY Sale',
  blocks: [{ type: 'rich_text', id: 'body', html: '<p>Save on every HiLux.</p>' }],
  offer: {
    expires_at: novemberThe26th,
    image: picture('ff'),
    terms_html: '<p>Offer ends 26 November 2026. Excludes demo vehicles.</p>',
    cars: [hiLux],
    detail_path: '/cars',
  },
};

export const blogPage = (page: number, pages: number): ResolvedPage => ({
  kind: 'blog',
  path: page > 1 ? `/blog?page=${page}` : '/blog',
  title: 'Latest News',
  blocks: [],
  blog: {
    section: 'blog',
    page,
    pages,
    posts: [
      {
        slug: `post-on-page-${page}`,
        title: `A post on page ${page}`,
        summary: 'News.',
        image: picture('ab'),
        published_at: novemberThe26th,
      },
    ],
  },
});

export const homePage: ResolvedPage = {
  kind: 'home',
  path: '/',
  title: 'Home',
  blocks: [
    {
      type: 'hero',
      id: 'hero',
      headline: 'Metro Toyota: drive away today',
      image: picture('a1'),
      cta: { label: 'Browse stock', to: '/cars' },
    },
    { type: 'featured_stock', id: 'stock', limit: 8, cars: [hiLux], detail_path: '/cars' },
    { type: 'cta', id: 'finance', headline: 'Finance made simple', button: { label: 'Get a quote', to: '/finance' } },
    {
      type: 'reviews',
      id: 'reviews',
      reviews: [
        { author: 'Pat M.', rating: 5, text: 'Great service.', reviewed_at: novemberThe26th, location_name: 'Metro Toyota Parramatta' },
      ],
      locations: [{ name: 'Metro Toyota Parramatta', rating: 4.6, count: 212 }],
    },
  ],
};
