import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '@dealer/ui/button';
import { ApiError, consoleCall, type ConsoleSite } from './console-api';

type User = { id: number; email: string; name: string | null; role: 'site_admin' | 'staff' | string };
const roleText: Record<string, string> = { site_admin: 'Site admin', staff: 'Staff' };

/** The people of a site: invite by e-mail, change a role, remove. */
export function UsersScreen({ site, me }: { site: ConsoleSite; me: string }) {
  const base = `/api/console/sites/${encodeURIComponent(site.slug)}/users`;
  const [users, setUsers] = useState<User[] | null>(null);
  const [email, setEmail] = useState('');
  const [role, setRole] = useState('staff');
  const [error, setError] = useState<ApiError | null>(null);
  const [said, setSaid] = useState('');

  useEffect(() => {
    let current = true;
    consoleCall<{ users: User[] }>('GET', base).then(
      (loaded) => current && setUsers(loaded.users),
      (caught: unknown) => current && setError(caught instanceof ApiError ? caught : new ApiError('Could not load the users.', 0)),
    );
    return () => {
      current = false;
    };
  }, [base]);

  const act = async (work: () => Promise<{ users: User[] }>, done: string) => {
    try {
      setUsers((await work()).users);
      setError(null);
      setSaid(done);
      return true;
    } catch (caught) {
      setError(caught instanceof ApiError ? caught : new ApiError('The change could not be saved.', 0));
      return false;
    }
  };
  const invite = async (event: FormEvent) => {
    event.preventDefault();
    if (await act(() => consoleCall('POST', base, { email, role }), `${email.trim()} is invited as ${roleText[role]?.toLowerCase()}.`))
      setEmail('');
  };

  return (
    <section aria-labelledby="dc-users-title">
      <h1 id="dc-users-title">Users of {site.name}</h1>
      <p role="status">{said}</p>
      {error && Object.keys(error.fields).length === 0 ? (
        <div className="dp-alert dp-alert--destructive" role="alert">
          {error.message}
        </div>
      ) : null}
      {users === null ? <p>Loading…</p> : null}
      <ul className="dc-users">
        {(users ?? []).map((user) => (
          <li key={user.id}>
            <span>{user.email}</span>
            {user.email === me ? (
              <span>{roleText[user.role] ?? user.role} (you)</span>
            ) : (
              <>
                <label>
                  <span className="dp-visually-hidden">Role of {user.email}</span>
                  <select
                    value={user.role}
                    onChange={(event) =>
                      void act(
                        () => consoleCall('POST', `${base}/${user.id}/role`, { role: event.target.value }),
                        `${user.email} is now ${roleText[event.target.value]?.toLowerCase()}.`,
                      )
                    }
                  >
                    <option value="site_admin">Site admin</option>
                    <option value="staff">Staff</option>
                  </select>
                </label>
                <Button
                  variant="link"
                  onClick={() =>
                    void act(() => consoleCall('DELETE', `${base}/${user.id}`), `${user.email} no longer works on ${site.name}.`)
                  }
                >
                  Remove {user.email}
                </Button>
              </>
            )}
          </li>
        ))}
      </ul>
      <h2>Invite someone</h2>
      <form onSubmit={invite} className="dc-users__invite" aria-label="Invite someone" noValidate>
        <div className={`dp-field${error?.fields.email ? ' dp-field--invalid' : ''}`}>
          <label htmlFor="invite-email">E-mail</label>
          <input
            id="invite-email"
            type="email"
            value={email}
            onChange={(event) => setEmail(event.target.value)}
            aria-describedby={error?.fields.email ? 'invite-email-error' : undefined}
            required
          />
          {error?.fields.email ? (
            <p className="dp-field__error" id="invite-email-error">
              {error.fields.email}
            </p>
          ) : null}
        </div>
        <div className="dp-field">
          <label htmlFor="invite-role">Role</label>
          <select id="invite-role" value={role} onChange={(event) => setRole(event.target.value)}>
            <option value="staff">Staff: leads, chats, reservations</option>
            <option value="site_admin">Site admin: also settings, users, remotes</option>
          </select>
        </div>
        <Button type="submit">Send the invitation</Button>
      </form>
    </section>
  );
}
