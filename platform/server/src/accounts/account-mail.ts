/** What shoppers are e-mailed: their sign-in code and link, and their garage's alerts. Plain text. */
import type { Car } from '@dealer/contracts/car';
import type { SiteConfig } from '@dealer/contracts/site';
import { formatPrice } from '@dealer/rules/price';
import { garagePath, vehiclePath } from '@dealer/rules/routes';

export type MailText = { subject: string; body: string };

export function signInMail(site: Pick<SiteConfig, 'name'>, sign: { code: string; link: string; minutes: number }): MailText {
  return {
    subject: `Your sign-in code for ${site.name}`,
    body: [
      `Your code to sign in to your garage at ${site.name} is:`,
      '',
      `    ${sign.code}`,
      '',
      'Or open this link on the device you are signing in on:',
      sign.link,
      '',
      `The code and the link work once, for ${sign.minutes} minutes.`,
      'If you did not ask to sign in, ignore this e-mail: nobody can sign in without the code or the link.',
      '',
    ].join('\n'),
  };
}

export type AlertMailItem = { kind: 'price_drop'; car: Car; savedPrice: number } | { kind: 'new_match'; car: Car; searchName: string };

/** Cars listed in one alert e-mail; beyond, the e-mail says how many more are in the garage. */
export const maxAlertMailItems = 20;

const carTitle = (car: Car) => (car.name.trim() ? car.name.trim() : `${car.year} ${car.make} ${car.model}`);

function itemLines(site: Pick<SiteConfig, 'url' | 'detail_path' | 'locale'>, item: AlertMailItem): string[] {
  const link = `${site.url.replace(/\/$/, '')}${vehiclePath(site, item.car.slug)}`;
  const price = formatPrice(item.car.price, { locale: site.locale });
  const line =
    item.kind === 'price_drop'
      ? `Price drop: ${carTitle(item.car)} is now ${price} (${formatPrice(item.savedPrice, { locale: site.locale })} when you saved it)`
      : `New for your search "${item.searchName}": ${carTitle(item.car)}, ${price}`;
  return [line, `  ${link}`, ''];
}

/**
 * Where an alert e-mail's shopper stops them (issue 24): the `/unsubscribe` page, which asks
 * before it records anything (mail scanners open links), and the one-click address a mail program
 * posts to (RFC 8058), at the site's origin: the API is served from the root of its host.
 */
export function unsubscribeLinks(site: Pick<SiteConfig, 'url'>, token: string): { page: string; oneClick: string } {
  const query = `?t=${encodeURIComponent(token)}`;
  return {
    page: `${site.url.replace(/\/$/, '')}/unsubscribe${query}`,
    oneClick: `${new URL(site.url).origin}/api/unsubscribe/one-click${query}`,
  };
}

/** An alert e-mail; `unsubscribePage` is the address of the site's `/unsubscribe` page with the shopper's token. */
export function alertMail(
  site: Pick<SiteConfig, 'name' | 'url' | 'detail_path' | 'garage_path' | 'locale'>,
  items: readonly AlertMailItem[],
  unsubscribePage: string,
): MailText {
  const first = items[0]!;
  const subject =
    items.length > 1
      ? `${items.length} updates from your garage at ${site.name}`
      : first.kind === 'price_drop'
        ? `Price drop: ${carTitle(first.car)} is now ${formatPrice(first.car.price, { locale: site.locale })}`
        : `New for your saved search "${first.searchName}": ${carTitle(first.car)}`;
  const shown = items.slice(0, maxAlertMailItems);
  const garage = `${site.url.replace(/\/$/, '')}${garagePath(site)}`;
  return {
    subject,
    body: [
      ...shown.flatMap((item) => itemLines(site, item)),
      ...(items.length > shown.length ? [`And ${items.length - shown.length} more in your garage: ${garage}`, ''] : []),
      `You get these e-mails for the cars and searches you saved in your garage at ${site.name}:`,
      garage,
      'Remove a saved car or search there, or delete your account, and its e-mails stop.',
      `Stop these e-mails: ${unsubscribePage}`,
      '',
    ].join('\n'),
  };
}
