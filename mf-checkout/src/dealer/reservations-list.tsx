import { useEffect, useState } from 'react';
import type { ReservationsListProps } from '@dealer/contracts/remote-modules';
import { Button } from '@dealer/ui/button';

type Reservation = {
  id: number;
  state: string;
  car_id: number;
  lead_id: number | null;
  amount_cents: number;
  currency: string;
  provider: string;
  payment_reference: string | null;
  customer: { first_name: string; last_name: string; email: string; phone: string };
  created_at: number;
};

const stateText: Record<string, string> = {
  holding: 'Held (paying)',
  reserved: 'Paid',
  expired: 'Hold ran out',
  cancelled: 'Cancelled by the shopper',
  released: 'Released, refunded',
  refunded: 'Refunded',
};
const when = (ms: number) => new Date(ms).toLocaleString('en-AU', { dateStyle: 'medium', timeStyle: 'short' });
const money = (cents: number, currency: string) => new Intl.NumberFormat('en-AU', { style: 'currency', currency }).format(cents / 100);

/** The dealer's reservations (console screen of mf-checkout): held, paid, refunded, released; a paid car released with its deposit refunded. */
export default function ReservationsList({ apiBase, canRelease }: ReservationsListProps) {
  const [reservations, setReservations] = useState<Reservation[] | null>(null);
  const [said, setSaid] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [version, setVersion] = useState(0);

  useEffect(() => {
    let current = true;
    fetch(`${apiBase}/reservations?limit=100`, { credentials: 'same-origin' })
      .then((res) => res.json() as Promise<{ reservations: Reservation[] }>)
      .then(
        (found) => current && setReservations(found.reservations),
        () => current && setError('The reservations could not be loaded.'),
      );
    return () => {
      current = false;
    };
  }, [apiBase, version]);

  const release = async (reservation: Reservation) => {
    const res = await fetch(`${apiBase}/reservations/${reservation.id}/release`, { method: 'POST', credentials: 'same-origin' });
    const answer = (await res.json().catch(() => ({}))) as { message?: string };
    if (!res.ok) {
      setError(answer.message ?? `The console answered ${res.status}.`);
      return;
    }
    setError(null);
    setSaid(`Reservation ${reservation.id} released: the deposit is refunded and the car is free again.`);
    setVersion((n) => n + 1);
  };

  return (
    <section aria-labelledby="dc-reservations-title">
      <h1 id="dc-reservations-title">Reservations</h1>
      <p role="status">{said}</p>
      {error ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error}
        </div>
      ) : null}
      {reservations === null ? <p>Loading…</p> : null}
      {reservations?.length === 0 ? <p>No reservations yet.</p> : null}
      {reservations && reservations.length > 0 ? (
        <table className="dc-inbox__table">
          <thead>
            <tr>
              <th scope="col">Made</th>
              <th scope="col">Shopper</th>
              <th scope="col">Car</th>
              <th scope="col">Deposit</th>
              <th scope="col">State</th>
              <th scope="col">Lead</th>
              {canRelease ? <th scope="col">Action</th> : null}
            </tr>
          </thead>
          <tbody>
            {reservations.map((reservation) => (
              <tr key={reservation.id}>
                <td>{when(reservation.created_at)}</td>
                <td>
                  {reservation.customer.first_name} {reservation.customer.last_name}
                </td>
                <td>car {reservation.car_id}</td>
                <td>{money(reservation.amount_cents, reservation.currency)}</td>
                <td>{stateText[reservation.state] ?? reservation.state}</td>
                <td>{reservation.lead_id ?? '–'}</td>
                {canRelease ? (
                  <td>
                    {reservation.state === 'reserved' ? (
                      <Button variant="secondary" onClick={() => void release(reservation)}>
                        Release reservation {reservation.id} and refund
                      </Button>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}
