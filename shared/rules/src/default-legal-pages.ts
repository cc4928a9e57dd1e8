/**
 * The privacy policy and terms a new site starts with (issue 24), one per country. They are a
 * dealer's starting point, written to be true of any dealer on the platform (its forms, Stripe
 * deposits, lenders, manufacturers, CRM), not legal advice: the dealer edits them in the console.
 */
import type { PageContent } from '@dealer/contracts/content';

export type Country = 'AU' | 'NZ' | 'US';

/** What the legal pages say about the dealer: who it is, where and how to reach it. */
export type LegalDetails = {
  country: Country;
  name: string;
  /** The full name of the state (AU, US) whose law governs; NZ has one. */
  stateName: string;
  /** The contact lines of the dealer, as html. */
  contactHtml: string;
  /** The licence of the primary location, if the dealer has one. */
  licence: string | null;
  seo: (title: string, description: string) => PageContent['seo'];
};

/** Text from the site's settings, made safe to put in html. */
export const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

const section = (heading: string, ...paragraphs: string[]) => `<h2>${heading}</h2>${paragraphs.join('')}`;
const p = (text: string) => `<p>${text}</p>`;
const list = (...items: string[]) => `<ul>${items.map((item) => `<li>${item}</li>`).join('')}</ul>`;
/** A link as the server's sanitiser writes it (decision 0020): another site's opens in a new tab, without our page as its opener. */
const link = (href: string, text: string) =>
  href.startsWith('/') ? `<a href="${href}">${text}</a>` : `<a href="${href}" target="_blank" rel="noopener noreferrer">${text}</a>`;

const privacyLaw: Record<Country, { law: string; principles: string; description: string }> = {
  AU: {
    law: 'the <em>Privacy Act 1988</em> (Cth)',
    principles: 'the Australian Privacy Principles (APPs)',
    description: 'under the Privacy Act 1988 and the Australian Privacy Principles',
  },
  NZ: {
    law: 'the <em>Privacy Act 2020</em>',
    principles: 'its Information Privacy Principles (IPPs)',
    description: 'under the Privacy Act 2020 and its Information Privacy Principles',
  },
  US: {
    law: 'the privacy laws of the United States that apply to us',
    principles: 'the California Consumer Privacy Act as amended by the California Privacy Rights Act (CCPA/CPRA)',
    description: 'and the rights of California and other US residents',
  },
};

function collectSection(country: Country): string {
  const licence = country === 'US' ? 'driver’s license' : 'driver licence';
  return section(
    'What we collect',
    p(`We collect only what we need to help you buy, finance, service or sell a vehicle:`),
    list(
      `<strong>Enquiry forms</strong>: your name, e-mail address, phone number, ${country === 'US' ? 'ZIP code' : 'postcode'}, the vehicle you are interested in and your message.`,
      `<strong>Test drives</strong>: the time and location you choose and, when you arrive, your ${licence} details, which we must check before you drive.`,
      `<strong>Finance applications</strong>: your date of birth, address, employment, income, expenses, assets and debts, and the details a lender needs to assess your application.`,
      `<strong>Reservations and deposits</strong>: your name and contact details and the vehicle you reserve. Card payments are taken by our payment processor, Stripe: we never see or keep your full card number.`,
      `<strong>Trade-ins and service bookings</strong>: your vehicle’s make, model, registration, VIN, odometer reading, condition and photos you send us.`,
      `<strong>Using this website</strong>: your device and browser, the pages you view, the vehicles you save and, through cookies, how you came to the site.`,
    ),
    p(
      country === 'US'
        ? 'We do not ask for sensitive personal information (such as a Social Security number) except on a credit application, where a lender requires it.'
        : 'We do not ask for sensitive information (such as health details) unless the law requires it or you choose to give it to us.',
    ),
  );
}

function purposesSection(): string {
  return section(
    'Why we use it',
    list(
      `To answer your enquiries and arrange test drives, inspections and service bookings.`,
      'To reserve a vehicle for you, take your deposit and complete the sale.',
      'To pass your finance application to the lenders you ask us to approach, and to arrange insurance and warranties you choose.',
      'To send you warranty, recall and safety notices about a vehicle you bought from us.',
      'To tell you about offers, new stock and events, when you have agreed to hear from us (see below).',
      'To improve this website, measure our advertising and keep the site secure.',
      'To meet our legal obligations, such as keeping records of vehicle sales and checking the identity of buyers.',
    ),
  );
}

function shareSection(country: Country): string {
  const overseas: Record<Country, string> = {
    AU: 'Some of these providers (including Stripe and our CRM and e-mail providers) keep information outside Australia, mainly in the United States. We take reasonable steps under APP 8 to make sure they protect it as the APPs require.',
    NZ: 'Some of these providers (including Stripe and our CRM and e-mail providers) keep information outside New Zealand, mainly in Australia and the United States. Under IPP 12 we send it only to providers bound to protect it in a way comparable to New Zealand law.',
    US: 'We do not sell your personal information for money. Advertising cookies on this site may count as “sharing” for cross-context behavioral advertising under California law; you can opt out of that (see “Your California privacy rights”).',
  };
  return section(
    'Who we share it with',
    p('We share your information only as far as needed, and only with:'),
    list(
      '<strong>Finance partners</strong>: the lenders, brokers and insurers you ask us to approach, who may check your credit history.',
      '<strong>Manufacturers and distributors</strong>: for warranty, recalls, service plans and customer satisfaction surveys.',
      '<strong>Our service providers</strong>: the CRM and lead management systems that hold your enquiry, our website host, and our e-mail and text message providers.',
      '<strong>Our payment processor, Stripe</strong>: to take deposits and payments securely.',
      '<strong>Related dealerships</strong> in our group, when another of our locations is better placed to help you.',
      '<strong>Government bodies and regulators</strong>: when the law requires it, for example to register a vehicle or answer a lawful request.',
    ),
    p(overseas[country]),
  );
}

function cookiesSection(): string {
  return section(
    'Cookies and analytics',
    p(
      'This site uses cookies to remember your saved vehicles and recent searches, and analytics and advertising tools (such as Google Analytics and Meta’s pixel) to learn which pages are useful and which advertising works. These tools see your device and the pages you visit, not your name.',
    ),
    p(
      'You can block or delete cookies in your browser’s settings; the site still works, though it will not remember your saved vehicles. Google offers a browser add-on to opt out of Google Analytics.',
    ),
  );
}

function marketingSection(country: Country): string {
  const law: Record<Country, string> = {
    AU: 'We send marketing only with your consent, as the <em>Spam Act 2003</em> requires, and identify ourselves in every message.',
    NZ: 'We send marketing only with your consent, as the <em>Unsolicited Electronic Messages Act 2007</em> requires, and identify ourselves in every message.',
    US: 'We follow the CAN-SPAM Act for e-mail and send marketing texts only with your consent (reply STOP to any text to end them).',
  };
  return section(
    'Marketing and opting out',
    p(law[country]),
    p(
      `You can stop our offers and stock alert e-mails at any time: use the unsubscribe link in any of them, visit ${link('/unsubscribe', 'our unsubscribe page')}, or contact us. We still send messages about a vehicle you are buying or a booking you made.`,
    ),
  );
}

function rightsSection(country: Country): string {
  if (country === 'AU') {
    return section(
      'Access and correction',
      p(
        'You may ask for the personal information we hold about you and ask us to correct it (APPs 12 and 13). Contact us using the details below. We answer within 30 days and do not charge for a request; if we cannot give access, we will tell you why in writing.',
      ),
    );
  }
  if (country === 'NZ') {
    return section(
      'Access and correction',
      p(
        'You may ask for the personal information we hold about you and ask us to correct it (IPPs 6 and 7). Contact us using the details below. We answer as soon as we can and no later than 20 working days after we receive your request, and we do not charge for access.',
      ),
    );
  }
  return (
    section(
      'Access, correction and deletion',
      p(
        'You may ask us for a copy of the personal information we hold about you, and ask us to correct or delete it. Contact us using the details below; we will verify your identity before we act on a request.',
      ),
    ) +
    section(
      'Your California privacy rights',
      p('If you live in California, the CCPA/CPRA gives you the right to:'),
      list(
        'know what personal information we collect, use and disclose, and get a copy of it;',
        'have it deleted or corrected;',
        'opt out of the sale or sharing of your personal information (we do not sell it; you can opt out of sharing for advertising, and we honor the Global Privacy Control signal of your browser);',
        'limit our use of sensitive personal information;',
        'not be treated differently for using these rights.',
      ),
      p(
        'Make a request by phone or e-mail using the details below, or through an authorized agent. We confirm a request within 10 business days and answer within 45 days. Residents of other states with privacy laws (such as Virginia, Colorado, Connecticut and Texas) may make the same requests. Our site is not directed to children under 13, and we do not knowingly collect their information.',
      ),
    )
  );
}

function complaintsSection(country: Country): string {
  const regulator: Record<Country, string> = {
    AU: `If you are not satisfied with our answer, you can complain to the Office of the Australian Information Commissioner (OAIC) at ${link('https://www.oaic.gov.au', 'www.oaic.gov.au')} or on 1300 363 992.`,
    NZ: `If you are not satisfied with our answer, you can complain to the Privacy Commissioner at ${link('https://www.privacy.org.nz', 'www.privacy.org.nz')} or on 0800 803 909.`,
    US: `If you are not satisfied with our answer, California residents can contact the California Privacy Protection Agency at ${link('https://cppa.ca.gov', 'cppa.ca.gov')}, and anyone can report to the Federal Trade Commission at ${link('https://reportfraud.ftc.gov', 'reportfraud.ftc.gov')}.`,
  };
  const breach: Record<Country, string> = {
    AU: 'If a data breach is likely to cause you serious harm, we will tell you and the OAIC, as the Notifiable Data Breaches scheme requires.',
    NZ: 'If a privacy breach is likely to cause you serious harm, we will tell you and the Privacy Commissioner as soon as we can.',
    US: 'If a security breach exposes your personal information, we will tell you as the law of your state requires.',
  };
  return (
    section(
      'Keeping it safe',
      p(
        'We keep your information in secure systems that only our staff and providers who need it can reach, and we delete or de-identify it when we no longer need it for the purposes above or to meet the law.',
      ),
      p(breach[country]),
    ) +
    section(
      'Complaints',
      p('If you think we have mishandled your information, please contact us first. We will look into it and reply within 30 days.'),
      p(regulator[country]),
    )
  );
}

export function privacyPolicy(details: LegalDetails): PageContent {
  const { country } = details;
  const name = escapeHtml(details.name);
  const law = privacyLaw[country];
  const intro = p(
    country === 'US'
      ? `${name} (“we”, “us”) respects your privacy. This policy explains what personal information we collect through this website and our dealership, why, who we share it with and the choices you have, including your rights under ${law.principles}.`
      : `${name} (“we”, “us”) is bound by ${law.law} and ${law.principles}. This policy explains what personal information we collect through this website and our dealership, why, who we share it with and how you can see, correct or complain about it.`,
  );
  return {
    title: 'Privacy Policy',
    blocks: [
      {
        type: 'rich_text',
        id: 'policy',
        html: [
          intro,
          collectSection(country),
          purposesSection(),
          shareSection(country),
          cookiesSection(),
          marketingSection(country),
          rightsSection(country),
          complaintsSection(country),
          section('Contact us', p('Questions, requests and complaints about privacy go to:'), details.contactHtml),
          p('We may update this policy from time to time; the version on this page is the one that applies.'),
        ].join(''),
      },
    ],
    seo: details.seo(
      `Privacy Policy | ${details.name}`,
      `How ${details.name} collects, uses and protects your personal information ${law.description}.`,
    ),
  };
}

const consumerLaw: Record<Country, string[]> = {
  AU: [
    'Our goods come with guarantees that cannot be excluded under the Australian Consumer Law. You are entitled to a replacement or refund for a major failure and compensation for any other reasonably foreseeable loss or damage. You are also entitled to have the goods repaired or replaced if the goods fail to be of acceptable quality and the failure does not amount to a major failure.',
    'A used vehicle may also carry a statutory warranty, and a sale a cooling-off period, under the motor dealer law of the state you buy in; we tell you when they apply.',
  ],
  NZ: [
    'Nothing in these terms limits your rights under the <em>Consumer Guarantees Act 1993</em>, the <em>Fair Trading Act 1986</em> or the <em>Motor Vehicle Sales Act 2003</em>. Every used vehicle we offer displays its Consumer Information Notice (CIN).',
    'As a registered motor vehicle trader, we are bound by the Motor Vehicle Disputes Tribunal, which can hear a claim about a vehicle we sold you.',
  ],
  US: [
    'Every used vehicle we offer displays the Buyers Guide the Federal Trade Commission requires; it forms part of your contract of sale and overrides anything to the contrary in it. A vehicle sold “as is” comes with no dealer warranty; any warranty we give is written on the Buyers Guide.',
    'Nothing in these terms limits the rights you have under the law of your state, including implied warranties where they apply and, for new vehicles, your state’s lemon law.',
  ],
};

function pricingSection(country: Country): string {
  const prices: Record<Country, string> = {
    AU: 'Prices are in Australian dollars and include GST. A <strong>drive-away</strong> price is the total you pay, including registration, compulsory third party (CTP) insurance, stamp duty and dealer delivery; a price marked otherwise says what it leaves out.',
    NZ: 'Prices are in New Zealand dollars and include GST. Whether a price includes on-road costs (registration, a current Warrant of Fitness and, for diesel vehicles, road user charges) is stated with the vehicle; ask us if it is not clear.',
    US: 'Prices are in US dollars and, unless stated otherwise, exclude sales tax, title, license and registration fees and our documentation fee, which are added when you buy.',
  };
  return section(
    'Vehicles, pricing and availability',
    p(prices[country]),
    p(
      'We take care to describe every vehicle accurately, but details and photos come partly from manufacturers and data providers and may contain errors; check anything that matters to you with us before you buy. A vehicle stays on sale until a contract is signed or a deposit is accepted, so it may be sold before we can update this site. If a price is shown in error, we will tell you and you need not go ahead.',
    ),
  );
}

function depositSection(): string {
  return section(
    'Deposits and reservations',
    p(
      'Where this site lets you reserve a vehicle, your deposit is taken by our payment processor, Stripe, and holds the vehicle for you for the time shown before you pay. Deposits are refundable in line with our deposit policy, which we explain before you pay. If we cannot supply the vehicle as described, we refund your deposit in full.',
    ),
    p(
      'A reservation is not a contract of sale: the sale is made when we both sign the contract, and the deposit then counts towards the price.',
    ),
  );
}

function financeSection(country: Country): string {
  const law: Record<Country, string> = {
    AU: 'Credit is provided by licensed lenders under the <em>National Consumer Credit Protection Act 2009</em> (Cth).',
    NZ: 'Credit is provided by lenders under the <em>Credit Contracts and Consumer Finance Act 2003</em>.',
    US: 'Your lender gives you the disclosures the Truth in Lending Act requires before you sign.',
  };
  return section(
    'Finance',
    p(
      `All finance is subject to the lender’s approval, credit criteria, terms, fees and charges. Repayments and rates shown on this site are estimates to help you compare, not an offer of credit. ${law[country]}`,
    ),
    p('A trade-in valuation given online is a guide only, confirmed when we inspect the vehicle.'),
  );
}

export function termsAndConditions(details: LegalDetails): PageContent {
  const { country } = details;
  const name = escapeHtml(details.name);
  const licence = details.licence ? ` (dealer ${country === 'US' ? 'license' : 'licence'} ${escapeHtml(details.licence)})` : '';
  const governingLaw = country === 'NZ' ? 'New Zealand' : country === 'AU' ? details.stateName : `the State of ${details.stateName}`;
  const html = [
    section(
      'Using this website',
      p(
        `This website is run by ${name}${licence}. By using it you accept these terms. You may use it to look for and enquire about vehicles for yourself; please do not copy its content for commercial use, scrape it or interfere with how it works.`,
      ),
    ),
    pricingSection(country),
    depositSection(),
    financeSection(country),
    section('Your rights as a consumer', ...consumerLaw[country].map(p)),
    section(
      'Our liability',
      p(
        'To the extent the law allows, we are not liable for loss that comes from using this website, from its being unavailable, or from relying on information on it without checking it with us. Nothing in these terms excludes rights that the law says cannot be excluded.',
      ),
    ),
    section(
      'Other websites and your privacy',
      p(
        `Links to other websites (such as manufacturers and lenders) are for your convenience; we are not responsible for their content. Our ${link('/privacy-policy', 'privacy policy')} explains how we handle your personal information.`,
      ),
    ),
    section(
      'Governing law',
      p(
        `These terms are governed by the law of ${escapeHtml(governingLaw)}, and its courts may hear any dispute about them. We may change these terms; the version on this page applies.`,
      ),
    ),
    section('Contact us', details.contactHtml),
  ].join('');
  return {
    title: 'Terms and Conditions',
    blocks: [{ type: 'rich_text', id: 'terms', html }],
    seo: details.seo(
      `Terms and Conditions | ${details.name}`,
      `The terms of using the ${details.name} website: pricing, deposits, finance and your rights as a consumer.`,
    ),
  };
}
